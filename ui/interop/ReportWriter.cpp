#include "ui/interop/ReportWriter.h"

#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/measured/TrustBand.h"
#include "core/report/ReportHtml.h"
#include "core/report/SvgCharts.h"
#include "ui/document/BundledValidationGroups.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/Format.h"

#include <QAbstractTextDocumentLayout>
#include <QFileInfo>
#include <QFont>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgRenderer>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextLayout>
#include <QUrl>

#include <cstdio>
#include <functional>

namespace lp::ui {
namespace {

constexpr int kImageWidth = 620; // CSS pixels of the charts on an A4 page (text width: 680)

QImage renderSvg(const core::SvgChart& chart, int scale) {
    QSvgRenderer renderer(QByteArray::fromStdString(chart.svg));
    QImage image(chart.width * scale, chart.height * scale, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    renderer.render(&painter);
    painter.end();
    return image;
}

// Writes `path` atomically: `fill` writes the content into the file, which replaces `path` only when
// all of it was written.
bool saveAtomically(const QString& path, QString* error, const std::function<void(QSaveFile&)>& fill) {
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        fill(file);
        if (file.commit())
            return true;
    }
    if (error)
        *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
    return false;
}

} // namespace

core::ReportInput ReportWriter::reportFor(const ScenarioDocument& doc) {
    core::ReportInput report = core::makeReport(doc.scenario(), doc.profile(), doc.plan());
    // The band of comparable measured runs (waits for the bundled runs' prediction, started with the window).
    report.trust = core::reportTrust(core::trustBand(doc.scenario(), doc.plan(), bundledTrustData().figures));
    return report;
}

std::unique_ptr<QTextDocument> ReportWriter::makeDocument(const core::ReportInput& report) {
    core::HtmlOptions options;
    options.inlineSvg = false;
    options.imageWidth = kImageWidth;
    options.navigation = false;
    options.fullWidthTables = true;
    auto doc = std::make_unique<QTextDocument>();
    QFont font = QGuiApplication::font();
    font.setPointSizeF(9.0);
    // No ligatures: "fi" stays two letters, so the PDF's text can be searched and copied as typed.
    font.setStyleStrategy(QFont::PreferNoShaping);
    doc->setDefaultFont(font);
    doc->setDocumentMargin(0);
    doc->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("lp-chart:memory")),
                     renderSvg(core::memoryChartSvg(report.plan), 3));
    doc->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("lp-chart:time")),
                     renderSvg(core::timeChartSvg(report.plan), 3));
    doc->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("lp-chart:goodput")),
                     renderSvg(core::goodputChartSvg(report.plan), 3));
    doc->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("lp-chart:loss")),
                     renderSvg(core::lossChartSvg(report.plan), 3));
    if (report.plan.valid)
        doc->addResource(
            QTextDocument::ImageResource, QUrl(QStringLiteral("lp-chart:timeline")),
            renderSvg(core::timelineChartSvg(core::buildTimeline(report.scenario, report.plan)), 3));
    doc->setHtml(QString::fromStdString(core::reportToHtml(report, options)));
    return doc;
}

void ReportWriter::paginate(QTextDocument& doc, const QSizeF& pageSize) {
    doc.setPageSize(pageSize);
    const qreal pageHeight = pageSize.height();
    if (pageHeight <= 0)
        return;
    auto pageOf = [&](qreal y) { return static_cast<int>(y / pageHeight); };
    // Where a block's first line is drawn: the layout may push the line (a chart, say) to the next page while
    // the block itself starts at the end of this one.
    auto firstLineTop = [&](const QTextBlock& b) {
        const QRectF rect = doc.documentLayout()->blockBoundingRect(b);
        const QTextLayout* layout = b.layout();
        return layout && layout->lineCount() > 0 ? rect.top() + layout->lineAt(0).y() : rect.top();
    };
    // In document order, so that each break moves only what follows it: the layout is redone lazily as
    // the following blocks' rectangles are asked for.
    for (QTextBlock block = doc.begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0 || !block.next().isValid())
            continue;
        const qreal heading = firstLineTop(block);
        const int page = pageOf(heading);
        if (pageOf(firstLineTop(block.next())) <= page || heading - page * pageHeight < 1.0)
            continue; // the section starts beside its heading, or the heading already starts a page
        QTextCursor cursor(block);
        QTextBlockFormat format = block.blockFormat();
        format.setPageBreakPolicy(format.pageBreakPolicy() | QTextFormat::PageBreak_AlwaysBefore);
        cursor.setBlockFormat(format);
        // Lay out again from here: an incremental relayout after the format change can leave later pages
        // drawn from stale positions.
        doc.markContentsDirty(block.position(), doc.characterCount() - block.position());
    }
}

bool ReportWriter::writePdf(const core::ReportInput& report, const QString& path, QString* error) {
    return saveAtomically(path, error, [&report](QSaveFile& file) {
        QPdfWriter writer(&file);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        // Layout in CSS pixels (96 per inch): the charts' pixel widths and the fonts' point sizes then
        // relate as on screen. Text stays vector; the charts keep their 3x rendering.
        writer.setResolution(96);
        writer.setTitle(QString::fromStdString(report.title));
        writer.setCreator(
            QStringLiteral("Layout Planner %1").arg(QString::fromStdString(report.toolVersion)));
        auto doc = makeDocument(report);
        // Paginate to the writer's printable area: otherwise print() adds 2 cm margins of its own.
        paginate(*doc, writer.pageLayout().paintRectPixels(writer.resolution()).size());
        doc->print(&writer);
    });
}

bool ReportWriter::write(const core::ReportInput& report, core::ReportFormat format, const QString& path,
                         QString* error) {
    if (format == core::ReportFormat::Pdf)
        return writePdf(report, path, error);
    const QByteArray bytes = QByteArray::fromStdString(core::renderReport(report, format));
    return saveAtomically(path, error, [&bytes](QSaveFile& file) { file.write(bytes); });
}

std::optional<core::ReportFormat> ReportWriter::formatForPath(const QString& path) {
    return core::reportFormatForPath(QFileInfo(path).fileName().toStdString());
}

const std::vector<core::ReportFormat>& ReportWriter::dialogFormats() {
    static const std::vector<core::ReportFormat> formats = {core::ReportFormat::Pdf, core::ReportFormat::Html,
                                                            core::ReportFormat::Markdown,
                                                            core::ReportFormat::Json};
    return formats;
}

QStringList ReportWriter::fileFilters() {
    return {QObject::tr("PDF (*.pdf)"), QObject::tr("HTML, self-contained (*.html)"),
            QObject::tr("Markdown (*.md)"), QObject::tr("JSON (*.json)")};
}

QString ReportWriter::pathForFormat(const QString& path, core::ReportFormat format) {
    const QString extension = qs(core::toString(format));
    const QFileInfo info(path);
    if (formatForPath(path) == format)
        return path;
    const QString base = formatForPath(path) ? path.left(path.size() - info.suffix().size() - 1) : path;
    return base + QLatin1Char('.') + extension;
}

int ReportWriter::exportFromCommandLine(const QString& outputPath, const QString& scenarioPath) {
    core::Scenario scenario = core::defaultScenario();
    if (!scenarioPath.isEmpty()) {
        auto loaded = core::loadScenarioFile(scenarioPath.toStdString());
        if (!loaded) {
            for (const auto& e : loaded.error())
                std::fprintf(stderr, "layout-planner: %s: %s\n", qPrintable(scenarioPath),
                             e.message().c_str());
            return 2;
        }
        scenario = std::move(*loaded);
    }
    core::ReportInput report = core::makeReport(scenario);
    report.trust = core::reportTrust(core::trustBand(scenario, report.plan, bundledTrustData().figures));
    std::string errors;
    for (const auto& d : report.plan.diagnostics)
        if (d.severity == core::Severity::Error)
            errors += (errors.empty() ? "" : ", ") + std::string(core::diagnosticIdString(d.id));
    if (!report.plan.valid || !errors.empty()) {
        std::fprintf(stderr, "layout-planner: invalid layout (%s); no report written\n",
                     errors.empty() ? "see the diagnostics" : errors.c_str());
        return 2;
    }
    const core::ReportFormat format = formatForPath(outputPath).value_or(core::ReportFormat::Pdf);
    QString error;
    if (!write(report, format, outputPath, &error)) {
        std::fprintf(stderr, "layout-planner: %s\n", qPrintable(error));
        return 1;
    }
    std::fprintf(stderr, "wrote %s\n", qPrintable(outputPath));
    return 0;
}

} // namespace lp::ui
