#include "PassListModel.h"
#include "SampleReport.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

class TestPassListModel : public QObject
{
    Q_OBJECT
private slots:
    void emptyModelHasNoRows()
    {
        PassListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(model.columnCount(), int(PassListModel::NumColumns));
        QCOMPARE(model.passAt(0), nullptr);
        QCOMPARE(model.lastRowWithIr(), -1);
    }

    void showsEveryPassOfTheReport()
    {
        PassListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(makeSampleReport("vadd", 6));

        QCOMPARE(model.rowCount(), 6);
        const QModelIndex name = model.index(3, PassListModel::NameColumn);
        QCOMPARE(name.data().toString(), QStringLiteral("asctile-to-ascendc"));
        QCOMPARE(model.index(3, PassListModel::StageColumn).data().toString(), QStringLiteral("lowering"));
        QCOMPARE(model.index(3, PassListModel::IndexColumn).data().toInt(), 3);
        QCOMPARE(model.index(3, PassListModel::OpsColumn).data().toInt(), 13);
        QCOMPARE(model.index(3, PassListModel::WallMsColumn).data().toString(), QStringLiteral("1.00"));
        QCOMPARE(model.index(3, PassListModel::WallMsColumn).data(PassListModel::SortRole).toDouble(), 1.0);
        QVERIFY(name.data(PassListModel::IrRole).toString().contains(QStringLiteral("after asctile-to-ascendc")));
        QCOMPARE(model.headerData(PassListModel::OpsColumn, Qt::Horizontal).toString(), QStringLiteral("Ops"));
    }

    void marksChangedPassesAndFadesTheOthers()
    {
        PassListModel model;
        model.setReport(makeSampleReport("vadd", 3));
        // Pass 1 left the IR unchanged in the sample.
        QCOMPARE(model.index(0, PassListModel::ChangedColumn).data().toString(), QStringLiteral("\u25CF"));
        QCOMPARE(model.index(1, PassListModel::ChangedColumn).data().toString(), QString());
        QCOMPARE(model.index(1, 0).data(PassListModel::ChangedRole).toBool(), false);
        QVERIFY(!model.index(0, PassListModel::NameColumn).data(Qt::ForegroundRole).isValid());
        QVERIFY(model.index(1, PassListModel::NameColumn).data(Qt::ForegroundRole).isValid());
    }

    void resetsWithANewReport()
    {
        PassListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setReport(makeSampleReport("vadd", 6));
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setReport(makeSampleReport("softmax", 2));
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.report()->kernel, std::string("softmax"));
        model.setReport(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void findsPassesByNameAndTheLastIr()
    {
        auto report = makeSampleReport("vadd", 6);
        report->passes[5].ir.clear(); // a pass that kept no IR
        PassListModel model;
        model.setReport(report);
        QCOMPARE(model.rowOfPass(QStringLiteral("ascendc-plan-ub")), 4);
        QCOMPARE(model.rowOfPass(QStringLiteral("no-such-pass")), -1);
        QCOMPARE(model.lastRowWithIr(), 4);
    }
};

QTEST_MAIN(TestPassListModel)
#include "tst_passlistmodel.moc"
