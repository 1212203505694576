// layout-planner: the desktop window.
//   layout-planner [SCENARIO.json]
//   layout-planner --screenshot FILE [SCENARIO.json]   render the window to a PNG and exit
//     [--size WxH] [--tab TITLE]                      at that window size, showing that tab
//   layout-planner --tour-step N --screenshot FILE     render step N of the guided tour
//   layout-planner --presentation [--screenshot FILE]  presentation mode (large fonts, high contrast)
//   layout-planner --export-pdf FILE [SCENARIO.json]   write the layout report as a PDF and exit
#include "ui/document/ScenarioDocument.h"
#include "ui/interop/ReportWriter.h"
#include "ui/shell/ExploreWiring.h"
#include "ui/shell/InteropWiring.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingWiring.h"
#include "ui/shell/ToolsWiring.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTabWidget>
#include <QTimer>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

bool envSet(const char* name) {
    const char* v = std::getenv(name);
    return v && *v;
}

// True when argv asks only for something that needs no screen: help, version, a PDF or a screenshot.
bool headlessRequest(int argc, char* argv[]) {
    static const char* const kHeadless[] = {"-h",        "--help",       "--help-all",  "-v",
                                            "--version", "--export-pdf", "--screenshot"};
    for (int i = 1; i < argc; ++i) {
        for (const char* opt : kHeadless) {
            const std::size_t n = std::strlen(opt);
            if (std::strncmp(argv[i], opt, n) == 0 && (argv[i][n] == '\0' || argv[i][n] == '='))
                return true;
        }
    }
    return false;
}

// Without a display Qt's xcb plugin aborts the process. Requests that need no screen run on the
// offscreen platform instead; an interactive start says what to do. Returns false to exit.
bool choosePlatform(int argc, char* argv[]) {
#if defined(Q_OS_LINUX) || defined(__linux__)
    if (envSet("QT_QPA_PLATFORM") || envSet("DISPLAY") || envSet("WAYLAND_DISPLAY"))
        return true;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "-platform") == 0 || std::strncmp(argv[i], "--platform", 10) == 0)
            return true;
    if (headlessRequest(argc, argv)) {
        qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
        return true;
    }
    std::fprintf(
        stderr,
        "layout-planner: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset).\n"
        "  Run it on a desktop session, under a virtual display (xvfb-run -a layout-planner), or use\n"
        "  layout-planner-cli, which plans the same layouts in a terminal (layout-planner-cli evaluate).\n"
        "  --screenshot FILE and --export-pdf FILE work without a display.\n");
    return false;
#else
    (void)argc;
    (void)argv;
    return true;
#endif
}

// The tabs and menus beyond the Plan view: Explore, One axis, Compare, Validate, Calibrate, Measured
// run, the export and import entries of the File menu, and Learn.
void installTabs(lp::ui::MainWindow& window) {
    lp::ui::ScenarioDocument& doc = *window.document();
    lp::ui::installExploreTabs(window, doc);
    lp::ui::installToolTabs(window, doc);
    lp::ui::installInterop(window, doc);
    lp::ui::installTeaching(window, doc);
}

// Shows the tab titled `title` (its mnemonic's & ignored, case-insensitive); false when there is none.
bool showTab(lp::ui::MainWindow& window, const QString& title) {
    QTabWidget* tabs = window.tabs();
    for (int i = 0; tabs && i < tabs->count(); ++i) {
        if (tabs->tabText(i).remove(QLatin1Char('&')).compare(title, Qt::CaseInsensitive) == 0) {
            tabs->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

} // namespace

int main(int argc, char* argv[]) {
    if (!choosePlatform(argc, argv))
        return 2;
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("LayoutPlanner"));
    QApplication::setApplicationName(QStringLiteral("layout-planner"));
    QApplication::setApplicationDisplayName(QStringLiteral("Layout Planner"));
    QApplication::setApplicationVersion(QStringLiteral(LP_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/layout-planner.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Plan distributed training layouts of large language models."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"), QStringLiteral("Render the main window to the PNG file FILE and exit."),
        QStringLiteral("FILE"));
    const QCommandLineOption size(
        QStringLiteral("size"),
        QStringLiteral("Window size for --screenshot, WIDTHxHEIGHT (default 1600x1000)."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption exportPdf(
        QStringLiteral("export-pdf"),
        QStringLiteral("Write the layout report of the scenario as a PDF and exit."), QStringLiteral("FILE"));
    const QCommandLineOption tab(
        QStringLiteral("tab"),
        QStringLiteral("Tab to show for --screenshot, by its title (Plan, Explore, One axis, "
                       "Compare, Calibrate, Validate, Measured run)."),
        QStringLiteral("TITLE"));
    parser.addOption(exportPdf);
    parser.addOption(screenshot);
    parser.addOption(size);
    parser.addOption(tab);
    lp::ui::addTeachingOptions(parser);
    parser.addPositionalArgument(QStringLiteral("scenario"), QStringLiteral("A scenario file to open."),
                                 QStringLiteral("[SCENARIO.json]"));
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    const QString scenario = args.isEmpty() ? QString() : args.first();

    if (parser.isSet(exportPdf))
        return lp::ui::ReportWriter::exportFromCommandLine(parser.value(exportPdf), scenario);

    if (parser.isSet(screenshot)) {
        // Deterministic: default settings, no autosave, nothing read from or written to the user's profile.
        lp::ui::WindowOptions options;
        options.persistentSettings = false;
        options.autosave = false;
        lp::ui::MainWindow window(options);
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        const int w = wh.size() == 2 ? wh[0].toInt() : 1600;
        const int h = wh.size() == 2 ? wh[1].toInt() : 1000;
        window.resize(w > 0 ? w : 1600, h > 0 ? h : 1000);
        installTabs(window);
        if (!window.startup(scenario)) {
            std::fprintf(stderr, "layout-planner: cannot open %s\n", qPrintable(scenario));
            return 2;
        }
        if (!lp::ui::applyTeachingOptions(window, *window.document(), parser))
            return 2;
        if (parser.isSet(tab) && !showTab(window, parser.value(tab))) {
            std::fprintf(stderr, "layout-planner: --tab: no tab titled \"%s\"\n",
                         qPrintable(parser.value(tab)));
            return 2;
        }
        window.show();
        const QString out = parser.value(screenshot);
        int rc = 0;
        QTimer::singleShot(200, &window, [&] {
            if (!window.renderScreenshot(out)) {
                std::fprintf(stderr, "layout-planner: cannot write %s\n", qPrintable(out));
                rc = 1;
            }
            app.quit();
        });
        app.exec();
        return rc;
    }

    lp::ui::MainWindow window;
    installTabs(window);
    window.startup(scenario);
    if (!lp::ui::applyTeachingOptions(window, *window.document(), parser))
        return 2;
    window.show();
    return app.exec();
}
