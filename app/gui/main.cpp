// layout-planner: the desktop window.
//   layout-planner [SCENARIO.json]
//   layout-planner --screenshot FILE [SCENARIO.json]   render the window to a PNG and exit
//     [--size WxH] [--tab TITLE]                      at that window size (at most 16384 a side), on that tab
//   layout-planner --tour-step N --screenshot FILE     render step N of the guided tour
//   layout-planner --presentation [--screenshot FILE]  presentation mode (large fonts, high contrast)
//   layout-planner --export-pdf FILE [SCENARIO.json]   write the layout report as a PDF and exit
#include "core/io/HfImport.h"
#include "core/io/ScenarioJson.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/interop/ReportWriter.h"
#include "ui/shell/ExportImportActions.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/PlannerWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/shell/WindowTabs.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QTabWidget>
#include <QTimer>
#include <QUndoStack>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>

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
        stderr, "layout-planner: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset).\n "
                " Run it on a desktop session, under a virtual display (xvfb-run -a layout-planner), or "
                "use\n  layout-planner-cli, which plans the same layouts in a terminal (layout-planner-cli "
                "evaluate).\n  --screenshot FILE and --export-pdf FILE work without a display.\n");
    return false;
#else
    (void)argc;
    (void)argv;
    return true;
#endif
}

// The options beyond help, version and teaching mode's.
struct Options {
    QCommandLineOption exportPdf{QStringLiteral("export-pdf"),
                                 QStringLiteral("Write the layout report of the scenario as a PDF and exit."),
                                 QStringLiteral("FILE")};
    QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                  QStringLiteral("Render the main window to the PNG file FILE and exit."),
                                  QStringLiteral("FILE")};
    QCommandLineOption size{
        QStringLiteral("size"),
        QStringLiteral("Window size for --screenshot, WIDTHxHEIGHT (default 1600x1000; at most "
                       "16384 a side and 67108864 pixels in all)."),
        QStringLiteral("WxH"), QStringLiteral("1600x1000")};
    QCommandLineOption tab{QStringLiteral("tab"),
                           QStringLiteral("Tab to show for --screenshot, by its title (%1).")
                               .arg(lp::ui::WindowTabs::names().join(QStringLiteral(", "))),
                           QStringLiteral("TITLE")};
};

void addOptions(QCommandLineParser& parser, const Options& options) {
    parser.setApplicationDescription(
        QStringLiteral("Plan distributed training layouts of large language models."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption(options.exportPdf);
    parser.addOption(options.screenshot);
    parser.addOption(options.size);
    parser.addOption(options.tab);
    lp::ui::TeachingMode::addCommandLineOptions(parser);
    parser.addPositionalArgument(QStringLiteral("scenario"), QStringLiteral("A scenario file to open."),
                                 QStringLiteral("[SCENARIO.json]"));
}

// Why the file named on the command line did not open, in the core loaders' words, one line each as
// --export-pdf prints them: the JSON path or line and column, a directory, a missing file.
void printOpenErrors(const QString& path, bool hfConfig) {
    const std::string file = path.toStdString();
    lp::core::InputErrors errors;
    if (hfConfig) {
        if (auto imported = lp::core::loadHfConfigFile(file); !imported)
            errors = std::move(imported.error());
    } else if (auto loaded = lp::core::loadScenarioFile(file); !loaded) {
        errors = std::move(loaded.error());
    }
    if (errors.empty())
        errors.push_back({"", "cannot open the file"});
    for (const auto& e : errors)
        std::fprintf(stderr, "layout-planner: %s: %s\n", qPrintable(path), e.message().c_str());
}

// Starts the window on the file named on the command line; says why on standard error when it does not
// open. A Hugging Face config is not a scenario: the window starts as without a file and imports its model,
// saying so.
bool startWindow(lp::ui::MainWindow& window, const QString& path) {
    if (path.isEmpty() || !lp::core::isHfConfigFile(path.toStdString())) {
        if (window.startup(path))
            return true;
        printOpenErrors(path, false);
        return false;
    }
    const std::string name = QFileInfo(path).fileName().toStdString();
    std::fprintf(stderr, "layout-planner: %s: importing its model\n",
                 lp::core::hfConfigNotScenarioText(name).c_str());
    window.startup();
    if (lp::ui::importHfConfig(window, path))
        return true;
    printOpenErrors(path, true);
    return false;
}

// --size WIDTHxHEIGHT, within the bounds docs/cli.md states: a larger window cannot be painted.
constexpr int kMaxScreenshotSide = 16384;
constexpr long long kMaxScreenshotPixels = 64LL * 1024 * 1024; // a 256 MiB image

std::optional<QSize> screenshotSize(const QString& text) {
    const QStringList wh = text.split(QLatin1Char('x'));
    bool okW = false, okH = false;
    const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
    const int h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 1 || h < 1 || w > kMaxScreenshotSide || h > kMaxScreenshotSide ||
        static_cast<long long>(w) * h > kMaxScreenshotPixels) {
        std::fprintf(
            stderr,
            "layout-planner: --size must be WIDTHxHEIGHT, each from 1 to %d and at most %lld pixels in "
            "all; got \"%s\"\n",
            kMaxScreenshotSide, kMaxScreenshotPixels, qPrintable(text));
        return std::nullopt;
    }
    return QSize(w, h);
}

// Whether an image of `size` can be painted on; says why not (too little memory) instead of crashing later.
bool canPaint(const QSize& size) {
    QImage surface(size, QImage::Format_ARGB32_Premultiplied);
    QPainter painter;
    if (!surface.isNull() && painter.begin(&surface))
        return true;
    std::fprintf(stderr, "layout-planner: --size %dx%d: cannot make an image of that size to paint on\n",
                 size.width(), size.height());
    return false;
}

// Shows the tab called `name` (its title without the &, any case); false when there is none.
bool showTab(lp::ui::MainWindow& window, const QString& name) {
    const auto tab = lp::ui::WindowTabs::fromName(name);
    if (!tab)
        return false;
    window.tabs()->setCurrentWidget(lp::ui::WindowTabs::of(window)->page(*tab));
    return true;
}

// --screenshot FILE: the window at --size, on --tab, rendered once it has laid out. Deterministic: default
// settings, no autosave, nothing read from or written to the user's profile.
int renderScreenshot(QApplication& app, const QCommandLineParser& parser, const Options& options,
                     const QString& scenario) {
    lp::ui::WindowOptions windowOptions;
    windowOptions.persistentSettings = false;
    windowOptions.autosave = false;
    const auto size = screenshotSize(parser.value(options.size));
    if (!size)
        return 2;
    if (!canPaint(*size))
        return 1;
    const auto window = lp::ui::makePlannerWindow(windowOptions);
    window->resize(*size);
    if (!startWindow(*window, scenario))
        return 2;
    if (!lp::ui::TeachingMode::of(*window)->applyCommandLine(parser))
        return 2;
    if (parser.isSet(options.tab) && !showTab(*window, parser.value(options.tab))) {
        std::fprintf(stderr, "layout-planner: --tab: no tab titled \"%s\"\n",
                     qPrintable(parser.value(options.tab)));
        return 2;
    }
    window->show();
    const QString out = parser.value(options.screenshot);
    int rc = 0;
    QTimer::singleShot(200, window.get(), [&] {
        if (!window->renderScreenshot(out)) {
            std::fprintf(stderr, "layout-planner: cannot write %s\n", qPrintable(out));
            rc = 1;
        }
        window->document()->undoStack()->setClean(); // a screenshot never asks to save (an imported model)
        app.quit();
    });
    app.exec();
    return rc;
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

    const Options options;
    QCommandLineParser parser;
    addOptions(parser, options);
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    const QString scenario = args.isEmpty() ? QString() : args.first();

    if (parser.isSet(options.exportPdf))
        return lp::ui::ReportWriter::exportFromCommandLine(parser.value(options.exportPdf), scenario);
    if (parser.isSet(options.screenshot))
        return renderScreenshot(app, parser, options, scenario);

    lp::ui::WindowOptions windowOptions;
    windowOptions.firstRunHint = true;
    const auto window = lp::ui::makePlannerWindow(windowOptions);
    startWindow(*window, scenario);
    if (!lp::ui::TeachingMode::of(*window)->applyCommandLine(parser))
        return 2;
    window->show();
    return app.exec();
}
