// layout-planner: the desktop window.
//   layout-planner [SCENARIO.json]
//   layout-planner --screenshot FILE [SCENARIO.json]   render the window to a PNG and exit
//   layout-planner --tour-step N --screenshot FILE     render step N of the guided tour
//   layout-planner --presentation [--screenshot FILE]  presentation mode (large fonts, high contrast)
//   layout-planner --export-pdf FILE [SCENARIO.json]   write the layout report as a PDF and exit
#include "ui/ExploreWiring.h"
#include "ui/InteropWiring.h"
#include "ui/ScenarioDocument.h"
#include "ui/MainWindow.h"
#include "ui/ReportWriter.h"
#include "ui/TeachingWiring.h"
#include "ui/ToolsWiring.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

namespace {

// The tabs and menus beyond the Plan view: Explore, One axis, Compare, Validate, Calibrate, Measured
// run, the export and import entries of the File menu, and Learn.
void installTabs(lp::ui::MainWindow& window) {
    lp::ui::ScenarioDocument& doc = *window.document();
    lp::ui::installExploreTabs(window, doc);
    lp::ui::installToolTabs(window, doc);
    lp::ui::installInterop(window, doc);
    lp::ui::installTeaching(window, doc);
}

} // namespace

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("LayoutPlanner"));
    QApplication::setApplicationName(QStringLiteral("layout-planner"));
    QApplication::setApplicationDisplayName(QStringLiteral("Layout Planner"));
    QApplication::setApplicationVersion(QStringLiteral(LP_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/layout-planner.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Plan distributed training layouts of large language models."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                        QStringLiteral("Render the main window to the PNG file FILE and exit."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot, WIDTHxHEIGHT (default 1600x1000)."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption exportPdf(QStringLiteral("export-pdf"),
                                       QStringLiteral("Write the layout report of the scenario as a PDF and exit."),
                                       QStringLiteral("FILE"));
    parser.addOption(exportPdf);
    parser.addOption(screenshot);
    parser.addOption(size);
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
