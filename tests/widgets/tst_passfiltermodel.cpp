#include "PassFilterModel.h"
#include "PassListModel.h"
#include "SampleReport.h"

#include <QAbstractItemModelTester>
#include <QTest>

class TestPassFilterModel : public QObject
{
    Q_OBJECT
private slots:
    void filtersByNameAndChange()
    {
        PassListModel model;
        PassFilterModel filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(makeSampleReport("vadd", 7));
        QCOMPARE(filter.rowCount(), 7);

        filter.setNameFilter(QStringLiteral("ASCTILE"));
        // asctile-unroll-loop and asctile-to-ascendc, case-insensitively.
        QCOMPARE(filter.rowCount(), 2);
        QCOMPARE(filter.index(0, PassListModel::NameColumn).data().toString(), QStringLiteral("asctile-unroll-loop"));

        filter.setNameFilter(QString());
        filter.setHideUnchanged(true);
        // Passes 1 and 4 left the IR unchanged.
        QCOMPARE(filter.rowCount(), 5);
        for (int row = 0; row < filter.rowCount(); ++row)
            QVERIFY(filter.index(row, 0).data(PassListModel::ChangedRole).toBool());

        filter.setNameFilter(QStringLiteral("canonicalize"));
        QCOMPARE(filter.rowCount(), 0); // the one canonicalize pass changed nothing
        filter.setHideUnchanged(false);
        QCOMPARE(filter.rowCount(), 1);

        // A new report keeps the filter.
        model.setReport(makeSampleReport("gelu", 3));
        QCOMPARE(filter.rowCount(), 1);
        model.setReport(nullptr);
        QCOMPARE(filter.rowCount(), 0);
    }
};

QTEST_MAIN(TestPassFilterModel)
#include "tst_passfiltermodel.moc"
