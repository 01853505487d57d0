#include "IrDiffView.h"
#include "IrView.h"
#include "PassFilterModel.h"
#include "PassListModel.h"
#include "PassListView.h"
#include "PassesPanel.h"
#include "SampleReport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextBlock>
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
        const QRect rect = list->visualRect(list->model()->index(2, PassListModel::NameColumn));
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

    void searchAndHideUnchangedFilterTheListButNotTheSelection()
    {
        PassesPanel panel;
        panel.setReports({makeSampleReport("vadd", 7)}, 0);
        panel.selectPass(3); // asctile-to-ascendc
        QTest::keyClicks(panel.searchField(), QStringLiteral("to-asc"));
        QCOMPARE(panel.passList()->model()->rowCount(), 1);
        QCOMPARE(panel.selectedPass(), 3);
        panel.searchField()->clear();
        panel.hideUnchangedBox()->setChecked(true);
        QCOMPARE(panel.passList()->model()->rowCount(), 5);
        // A hidden pass cannot be selected.
        panel.selectPass(1);
        QCOMPARE(panel.selectedPass(), -1);
    }

    void diffAgainstThePreviousPassSideBySideAndInline()
    {
        PassesPanel panel;
        panel.setReports({makeSampleReport("vadd", 6)}, 0);
        panel.selectPass(2);
        panel.setPage(PassesPanel::Page::Diff);
        IrDiffView *diff = panel.diffView();
        QCOMPARE(diff->diff().addedCount(), 1);
        QCOMPARE(diff->diff().removedCount(), 1);
        QVERIFY2(diff->caption().contains(QStringLiteral("canonicalize \u2192 asctile-unroll-loop")), qPrintable(diff->caption()));
        // Side by side: the changed constant faces its old self on row 1.
        QCOMPARE(diff->beforeView()->document()->findBlockByNumber(1).text(),
                 QStringLiteral("  %0 = arith.constant 1 : index // after canonicalize"));
        QCOMPARE(diff->afterView()->document()->findBlockByNumber(1).text(),
                 QStringLiteral("  %0 = arith.constant 2 : index // after asctile-unroll-loop"));
        diff->setMode(IrDiffView::Mode::Inline);
        const QString inlineText = diff->inlineView()->toPlainText();
        QVERIFY(inlineText.contains(QStringLiteral("-   %0 = arith.constant 1")));
        QVERIFY(inlineText.contains(QStringLiteral("+   %0 = arith.constant 2")));
        QVERIFY(inlineText.startsWith(QStringLiteral("  func.func @vadd")));
        // Following the selection.
        panel.selectPass(4);
        QVERIFY(diff->caption().contains(QStringLiteral("asctile-to-ascendc \u2192 ascendc-plan-ub")));
    }

    void nextAndPreviousChangeStepThroughADiff()
    {
        IrDiffView diff;
        diff.resize(800, 300);
        diff.show();
        QVERIFY(QTest::qWaitForWindowExposed(&diff));
        QStringList before, after;
        for (int i = 0; i < 60; ++i) {
            before << QStringLiteral("line %1").arg(i);
            after << (i == 5 || i == 6 || i == 40 ? QStringLiteral("changed %1").arg(i) : QStringLiteral("line %1").arg(i));
        }
        after << QStringLiteral("appended");
        diff.setTexts(before.join('\n'), after.join('\n'), QStringLiteral("a \u2192 b"));
        // Three changes: rows 5-6 (one run), 40, the appended line.
        QCOMPARE(diff.changes(), (QVector<int>{5, 40, 60}));
        QCOMPARE(diff.currentChange(), -1);
        diff.afterView()->setFocus();
        QTest::keyClick(diff.afterView(), Qt::Key_F7);
        QCOMPARE(diff.currentChange(), 0);
        QCOMPARE(diff.afterView()->textCursor().blockNumber(), 5);
        QTest::keyClick(diff.afterView(), Qt::Key_F7);
        QCOMPARE(diff.afterView()->textCursor().blockNumber(), 40);
        QCOMPARE(diff.beforeView()->textCursor().blockNumber(), 40); // both columns
        QTest::keyClick(diff.afterView(), Qt::Key_F7);
        QTest::keyClick(diff.afterView(), Qt::Key_F7); // wraps
        QCOMPARE(diff.currentChange(), 0);
        QTest::keyClick(diff.afterView(), Qt::Key_F7, Qt::ShiftModifier);
        QCOMPARE(diff.currentChange(), 2);
        // Inline: the rows of the inline text.
        diff.setMode(IrDiffView::Mode::Inline);
        QCOMPARE(diff.changes().size(), 3);
        diff.nextChange();
        QVERIFY(diff.inlineView()->textCursor().block().text().startsWith(QStringLiteral("- line 5")));
        // No change: nothing to step to.
        diff.setTexts(QStringLiteral("same"), QStringLiteral("same"), QStringLiteral("x"));
        QVERIFY(diff.changes().isEmpty());
        diff.nextChange();
        QCOMPARE(diff.currentChange(), -1);
    }

    void irLinesAndPythonLinesFollowEachOther()
    {
        PassesPanel panel;
        QSignalSpy activated(&panel, &PassesPanel::sourceLineActivated);
        panel.setReports({makeSampleReport("vadd", 6)}, 0);
        panel.selectPass(2);
        // The editor's cursor on line 5 marks the IR line that came from it.
        panel.highlightSourceLine(5);
        QCOMPARE(panel.irView()->linkedLines(), QVector<int>{1});
        panel.highlightSourceLine(42);
        QVERIFY(panel.irView()->linkedLines().isEmpty());

        // The reader moves the IR cursor to the return: Python line 6.
        QTextCursor cursor(panel.irView()->document()->findBlockByNumber(2));
        panel.irView()->setTextCursor(cursor);
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.last().at(0).toInt(), 6);
        QCOMPARE(panel.sourceLineAtIrCursor(), 6);
        // The closing brace came from no Python line: nothing to follow.
        panel.irView()->setTextCursor(QTextCursor(panel.irView()->document()->findBlockByNumber(3)));
        QCOMPARE(activated.count(), 1);
    }

    void findsTheFirstPassThatChangedALine()
    {
        PassesPanel panel;
        panel.setReports({makeSampleReport("vadd", 6)}, 0);
        // The constant (line 5) reads differently after every pass; the return (line 6) never changes.
        QCOMPARE(panel.firstPassChangingSourceLine(5), 1);
        QCOMPARE(panel.firstPassChangingSourceLine(6), -1);
        QCOMPARE(panel.firstPassChangingSourceLine(0), -1);
        panel.hideUnchangedBox()->setChecked(true); // pass 1 changed nothing overall: hidden
        QCOMPARE(panel.selectFirstPassChangingSourceLine(5), 1);
        QCOMPARE(panel.selectedPass(), 1);
        QVERIFY(!panel.hideUnchangedBox()->isChecked());
        QCOMPARE(panel.irView()->linkedLines(), QVector<int>{1});
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
