#pragma once
// Writing layout reports from the window (File > Export report) and from
// `layout-planner --export-pdf FILE [SCENARIO.json]`. HTML, Markdown and JSON come from core
// (core/report/Report.h); the PDF is core's HTML laid out by QTextDocument on a QPdfWriter (A4), with the
// charts rendered from core's SVG by QSvgRenderer, so the PDF says exactly what the HTML says.
#include "core/report/Report.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

class QSizeF;
class QTextDocument;

namespace lp::ui {

class ScenarioDocument;

class ReportWriter {
public:
    // The document's current scenario, hardware profile and plan (the plan of the current scenario,
    // even when its layout is invalid: the report then lists the errors).
    static core::ReportInput reportFor(const ScenarioDocument& doc);

    // The report laid out for Qt: HTML without navigation, the charts as images. For printing or a preview.
    static std::unique_ptr<QTextDocument> makeDocument(const core::ReportInput& report);
    // Lays the document out on pages of the given size (pixels) and keeps each heading on the page of what
    // it heads: a heading that would end a page, its section starting on the next, starts that page instead.
    static void paginate(QTextDocument& doc, const QSizeF& pageSize);

    // Writes the report in the format, atomically (QSaveFile). False with a message on failure.
    static bool write(const core::ReportInput& report, core::ReportFormat format, const QString& path,
                      QString* error = nullptr);
    static bool writePdf(const core::ReportInput& report, const QString& path, QString* error = nullptr);

    // The format for a file name's extension (.pdf, .html/.htm, .md, .json).
    static std::optional<core::ReportFormat> formatForPath(const QString& path);
    // The save dialog's formats, in its order: PDF, self-contained HTML, Markdown, JSON; each with its name
    // filter ("PDF (*.pdf)").
    static const std::vector<core::ReportFormat>& dialogFormats();
    static QStringList fileFilters();
    // `path` with the format's extension: a report extension of another format is replaced, none is added
    // ("plan.html" as PDF: "plan.pdf"; "plan" as Markdown: "plan.md"), so the file holds what its name says.
    static QString pathForFormat(const QString& path, core::ReportFormat format);

    // `layout-planner --export-pdf FILE [SCENARIO.json]`: loads the scenario (the default one without
    // a file), evaluates it with the GPU's built-in profile and writes the report in the format of
    // FILE's extension (PDF unless .html, .md or .json). Messages go to stderr. Returns the exit
    // code: 0 written, 1 the file could not be written, 2 the scenario cannot be loaded or its
    // layout is invalid. Needs a QGuiApplication (the offscreen platform will do).
    static int exportFromCommandLine(const QString& outputPath, const QString& scenarioPath);
};

} // namespace lp::ui
