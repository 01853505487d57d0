#include "IrView.h"
#include "PassListModel.h"
#include "PassListView.h"
#include "PassesPanel.h"
#include "SampleReport.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QTest>

class TestPassesPanel : public QObject
{
    Q_OBJECT
private slots:
    void selectingAPassShowsItsIr()
    {
        PassesPanel panel;
        panel.resize(600, 500);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        panel.setReports({makeSampleReport("vadd", 6)}, 0);

        QCOMPARE(panel.model()->rowCount(), 6);
        QVERIFY(panel.irView()->ir().isEmpty());

        // Click the row as a user would.
        PassListView *list = panel.passList();
        const QRect rect = list->visualRect(panel.model()->index(2, PassListModel::NameColumn));
        QVERIFY(rect.isValid());
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(panel.selectedPass(), 2);
        QVERIFY(panel.irView()->ir().contains(QStringLiteral("after asctile-unroll-loop")));

        panel.selectLastPassWithIr();
        QCOMPARE(panel.selectedPass(), 5);
        QVERIFY(panel.irView()->ir().contains(QStringLiteral("after ascendc-insert-sync")));
    }

    void offersEveryKernelOfTheRun()
    {
        PassesPanel panel;
        QSignalSpy changed(&panel, &PassesPanel::currentReportChanged);
        auto vadd = makeSampleReport("vadd", 4);
        auto softmax = makeSampleReport("softmax", 6);
        panel.setReports({vadd, softmax}, 1);

        QComboBox *selector = panel.kernelSelector();
        QCOMPARE(selector->count(), 2);
        QCOMPARE(selector->itemText(0), QStringLiteral("vadd"));
        QCOMPARE(selector->currentIndex(), 1);
        QVERIFY(selector->isEnabled());
        QCOMPARE(panel.currentReport(), ReportPtr(softmax));
        QCOMPARE(changed.count(), 1);

        selector->setCurrentIndex(0);
        QCOMPARE(panel.currentReport(), ReportPtr(vadd));
        QCOMPARE(panel.model()->rowCount(), 4);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(changed.last().at(0).value<ReportPtr>(), ReportPtr(vadd));
    }

    void aKernelCompiledTwiceIsNumbered()
    {
        PassesPanel panel;
        panel.setReports({makeSampleReport("vadd"), makeSampleReport("vadd")}, 0);
        QCOMPARE(panel.kernelSelector()->itemText(0), QStringLiteral("vadd #1"));
        QCOMPARE(panel.kernelSelector()->itemText(1), QStringLiteral("vadd #2"));
    }

    void keepsTheSelectedPassWhenTheReportIsRenewed()
    {
        PassesPanel panel;
        panel.setReports({makeSampleReport("vadd", 6)}, 0);
        panel.selectPass(4);
        const QString before = panel.irView()->ir();

        // The same kernel again, now with its launch: the reader stays on the pass.
        auto launched = makeSampleReport("vadd", 6);
        launched->launches.push_back(makeLaunch(1234));
        panel.setReports({launched}, 0);
        QCOMPARE(panel.currentReport(), ReportPtr(launched));
        QCOMPARE(panel.selectedPass(), 4);
        QCOMPARE(panel.irView()->ir(), before);
    }

    void clearingEmptiesEverything()
    {
        PassesPanel panel;
        panel.setReports({makeSampleReport("vadd", 6)}, 0);
        panel.selectPass(1);
        panel.clear();
        QCOMPARE(panel.model()->rowCount(), 0);
        QCOMPARE(panel.kernelSelector()->count(), 0);
        QVERIFY(panel.irView()->ir().isEmpty());
        QVERIFY(!panel.currentReport());
    }
};

QTEST_MAIN(TestPassesPanel)
#include "tst_passespanel.moc"
