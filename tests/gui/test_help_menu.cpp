// The help a new user finds in the window: the first-run pointer to the guided tour (once, remembered in the
// settings), Help > User Guide (the docs rendered in the app), Help > Keyboard Shortcuts (read from the
// actions) and Quit as the last entry of the File menu.
#include "WindowTestSupport.h"
#include "ui/shell/Settings.h"
#include "ui/shell/ShortcutsDialog.h"
#include "ui/shell/TeachingMode.h"
#include "ui/shell/UserGuideViewer.h"
#include "ui/shell/WindowMenus.h"
#include "ui/teach/Tour.h"
#include "ui/widgets/InlineBanner.h"

#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollBar>
#include <QTableWidget>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>

using namespace lp;

class TestHelpMenu : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    // The program's window (every tab and teaching mode), with persistent settings and the first-run hint.
    static std::unique_ptr<ui::MainWindow> openFirstRunWindow() {
        ui::WindowOptions options = test::quietOptions();
        options.persistentSettings = true;
        options.firstRunHint = true;
        auto window = ui::makePlannerWindow(options);
        test::startTestWindow(*window);
        window->show();
        return window;
    }

    static QPushButton* bannerButton(ui::InlineBanner* banner, const QString& text) {
        for (QPushButton* b : banner->findChildren<QPushButton*>())
            if (b->text() == text && b->isVisible())
                return b;
        return nullptr;
    }

    static QAction* helpAction(ui::MainWindow& w, const QString& objectName) {
        for (QAction* top : w.menuBar()->actions())
            if (top->menu() && top->menu()->title() == QStringLiteral("&Help"))
                for (QAction* a : top->menu()->actions())
                    if (a->objectName() == objectName)
                        return a;
        return nullptr;
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }
    void init() { QSettings().clear(); }

    void firstRunHintPointsToTheTourOnce() {
        auto window = openFirstRunWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        ui::InlineBanner* hint = window->hintBanner();
        QVERIFY(hint->isVisible());
        QVERIFY(hint->title().contains(QStringLiteral("guided tour")));
        QPushButton* take = bannerButton(hint, QStringLiteral("Take the &tour"));
        QVERIFY(take);
        QTest::mouseClick(take, Qt::LeftButton);
        QVERIFY(!hint->isVisible());
        QVERIFY(ui::TeachingMode::of(*window)->tour()->isActive());
        ui::TeachingMode::of(*window)->tour()->stop();
        test::closeTestWindow(window);

        auto second = openFirstRunWindow(); // remembered in the settings: not again
        QVERIFY(QTest::qWaitForWindowExposed(second.get()));
        QVERIFY(!second->hintBanner()->isVisible());
        test::closeTestWindow(second);
    }

    void firstRunHintIsDismissible() {
        auto window = openFirstRunWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QPushButton* notNow = bannerButton(window->hintBanner(), QStringLiteral("&Not now"));
        QVERIFY(notNow);
        QTest::mouseClick(notNow, Qt::LeftButton);
        QVERIFY(!window->hintBanner()->isVisible());
        QVERIFY(!ui::TeachingMode::of(*window)->tour()->isActive());
        QVERIFY(window->settings()->tourHintShown());
        test::closeTestWindow(window);
    }

    // Started with F2 (or the Learn menu, or the toolbar), the tour answers the offer too: the strip goes.
    void theTourStartedAnotherWayAnswersTheOffer() {
        auto window = openFirstRunWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QVERIFY(window->hintBanner()->isVisible());
        QTest::keyClick(window.get(), Qt::Key_F2);
        QVERIFY(ui::TeachingMode::of(*window)->tour()->isActive());
        QVERIFY(!window->hintBanner()->isVisible());
        ui::TeachingMode::of(*window)->tour()->stop();
        QVERIFY(!window->hintBanner()->isVisible()); // not back when the tour ends
        test::closeTestWindow(window);
    }

    void noHintUnlessAsked() {
        auto window = test::openExploreWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QVERIFY(!window->hintBanner()->isVisible());
        test::closeTestWindow(window);
    }

    void userGuideShowsTheDocs() {
        auto window = test::openExploreWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QAction* guide = helpAction(*window, QStringLiteral("actionUserGuide"));
        QVERIFY(guide);
        guide->trigger();
        auto* viewer = window->findChild<ui::UserGuideViewer*>();
        QVERIFY(viewer);
        QVERIFY(viewer->isVisible());
        QVERIFY(viewer->browser()->source().toLocalFile().endsWith(QStringLiteral("docs/user-guide.md")));
        // Rendered from Markdown: headings become text, not "# ..." lines.
        const QString text = viewer->browser()->toPlainText();
        QVERIFY(text.contains(QStringLiteral("Getting help")));
        QVERIFY(!text.startsWith(QLatin1Char('#')));
        // Its screenshots (1,600 pixels wide) are drawn at the page's width: the page does not scroll
        // sideways, at the viewer's size or narrower.
        for (const int width : {900, 640}) {
            viewer->resize(width, 600);
            QApplication::processEvents();
            int pictures = 0;
            for (QTextBlock b = viewer->browser()->document()->begin(); b.isValid(); b = b.next())
                for (auto it = b.begin(); !it.atEnd(); ++it)
                    if (it.fragment().charFormat().isImageFormat()) {
                        ++pictures;
                        QVERIFY(it.fragment().charFormat().toImageFormat().width() > 0);
                        QVERIFY(it.fragment().charFormat().toImageFormat().width() <
                                viewer->browser()->viewport()->width());
                    }
            QVERIFY(pictures >= 1);
            QCOMPARE(viewer->browser()->horizontalScrollBar()->maximum(), 0);
        }
        test::closeTestWindow(window);
    }

    void shortcutsAreReadFromTheActions() {
        auto window = test::openExploreWindow();
        QVERIFY(QTest::qWaitForWindowExposed(window.get()));
        QAction* list = helpAction(*window, QStringLiteral("actionShortcuts"));
        QVERIFY(list);
        // A key given to a command after the window is built shows in the list: it is not written by hand.
        QAction* glossary = ui::TeachingMode::of(*window)->glossaryAction();
        glossary->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G));
        list->trigger();
        auto* dialog = window->findChild<ui::ShortcutsDialog*>();
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QTableWidget* table = dialog->table();
        auto keysOf = [table](const QString& command) {
            for (int r = 0; r < table->rowCount(); ++r)
                if (table->item(r, 1)->text() == command)
                    return table->item(r, 2)->text();
            return QString();
        };
        QCOMPARE(keysOf(QStringLiteral("Guided Tour")),
                 QKeySequence(Qt::Key_F2).toString(QKeySequence::NativeText));
        QCOMPARE(keysOf(QStringLiteral("Glossary")),
                 QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_G).toString(QKeySequence::NativeText));
        QVERIFY(keysOf(QStringLiteral("Undo")).contains(QStringLiteral("Ctrl+Z")));
        QVERIFY(keysOf(QStringLiteral("Redo")).contains(QStringLiteral("Ctrl+Y")));
        test::closeTestWindow(window);
    }

    void quitIsTheLastFileEntry() {
        auto window = test::openExploreWindow(); // exports and imports are added to File after the menus
        const QList<QAction*> entries = window->menus()->fileMenu()->actions();
        QVERIFY(entries.size() > 3);
        QCOMPARE(entries.last()->text(), QStringLiteral("&Quit"));
        QVERIFY(entries.at(entries.size() - 2)->isSeparator());
        QVERIFY(!entries.at(entries.size() - 3)->isSeparator());
        test::closeTestWindow(window);
    }
};

QTEST_MAIN(TestHelpMenu)
#include "test_help_menu.moc"
