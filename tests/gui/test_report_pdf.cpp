// The PDF report (ui/ReportWriter): Qt's PDF writer over core's HTML, with the charts rendered from
// core's SVG. Checks the file, its page count and its text (pdfinfo / pdftotext when installed),
// that user strings show as text, the other formats, and the --export-pdf entry point.
#include "GuiTestSupport.h"
#include "core/io/Presets.h"
#include "core/io/ScenarioJson.h"
#include "core/report/Report.h"
#include "ui/interop/ReportWriter.h"

#include <QAbstractTextDocumentLayout>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>

using namespace lp;

class TestReportPdf : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    static core::ReportInput hostileReport() {
        core::Scenario s = core::defaultScenario();
        s.model.name = "<script>alert(1)</script>";
        s.notes = "Notes with <b>markup</b> & ampersands.";
        core::ReportInput r = core::makeReport(s);
        r.generatedAt = "2025-01-31T09:40:00Z";
        return r;
    }

    static QString run(const QString& program, const QStringList& args) {
        QProcess p;
        p.start(program, args);
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            return {};
        return QString::fromUtf8(p.readAllStandardOutput());
    }

    static int pageCount(const QString& path, const QByteArray& bytes) {
        const QString pdfinfo = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
        if (!pdfinfo.isEmpty()) {
            const auto m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(run(pdfinfo, {path}));
            if (m.hasMatch())
                return m.captured(1).toInt();
        }
        // Qt writes each page's dictionary uncompressed: "/Type /Page" (not "/Pages").
        int n = 0;
        auto it =
            QRegularExpression(QStringLiteral("/Type\\s*/Page(?!s)")).globalMatch(QString::fromLatin1(bytes));
        while (it.hasNext()) {
            it.next();
            ++n;
        }
        return n;
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void pdfHasTheReport() {
        const QString path = m_dir.filePath(QStringLiteral("report.pdf"));
        QString error;
        QVERIFY2(ui::ReportWriter::writePdf(hostileReport(), path, &error), qPrintable(error));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray bytes = file.readAll();
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY2(bytes.size() > 20000, qPrintable(QString::number(bytes.size())));
        const int pages = pageCount(path, bytes);
        QVERIFY2(pages >= 3 && pages <= 40, qPrintable(QString::number(pages)));

        const QString pdftotext = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
        if (pdftotext.isEmpty()) {
            qWarning("pdftotext not installed: the PDF's text is not checked");
            return;
        }
        // Lines wrap where the page ends: compare with all runs of white space made single spaces.
        const QString text = run(pdftotext, {path, QStringLiteral("-")}).simplified();
        QVERIFY(!text.isEmpty());
        // The title names the scenario, which follows its model's name: the hostile one, escaped nowhere.
        QVERIFY2(text.contains(QString::fromStdString(hostileReport().title)), hostileReport().title.c_str());
        QVERIFY(hostileReport().title.starts_with("Layout report: <script>alert(1)</script>"));
        for (const char* expected : {"Summary", "Scenario", "Memory per GPU, by pipeline stage",
                                     "Time per step", "Utilisation and throughput", "Diagnostics",
                                     "pipeline_bubble", "How the key figures are computed",
                                     "Hardware profile", "Assumptions", "Appendix: scenario file",
                                     "<script>alert(1)</script>", "Notes with <b>markup</b> & ampersands."})
            QVERIFY2(text.contains(QString::fromUtf8(expected)), expected);
    }

    void qtDocumentCarriesTheCharts() {
        auto doc = ui::ReportWriter::makeDocument(hostileReport());
        QVERIFY(doc->toPlainText().contains(QStringLiteral("Memory per GPU")));
        QVERIFY(doc->toPlainText().contains(QStringLiteral("<script>alert(1)</script>")));
        const QVariant memory =
            doc->resource(QTextDocument::ImageResource, QUrl(QStringLiteral("lp-chart:memory")));
        const QVariant time =
            doc->resource(QTextDocument::ImageResource, QUrl(QStringLiteral("lp-chart:time")));
        QVERIFY(memory.isValid() && !memory.value<QImage>().isNull());
        QVERIFY(time.isValid() && !time.value<QImage>().isNull());
        QVERIFY(!doc->toPlainText().contains(QStringLiteral("Contents"))); // no navigation on paper
    }

    void headingsStayOnThePageOfTheirSection() {
        // On every page height from a short page to a tall one, no heading is left at the foot of a page
        // with its section (a chart, a table, its first paragraph) starting on the next; and the text
        // stays whole.
        const QString whole = ui::ReportWriter::makeDocument(hostileReport())->toPlainText();
        int moved = 0;
        for (int height = 500; height <= 1200; height += 35) {
            auto doc = ui::ReportWriter::makeDocument(hostileReport());
            ui::ReportWriter::paginate(*doc, QSizeF(680, height));
            QCOMPARE(doc->toPlainText(), whole);
            for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
                if (b.blockFormat().headingLevel() == 0 || !b.next().isValid())
                    continue;
                moved += (b.blockFormat().pageBreakPolicy() & QTextFormat::PageBreak_AlwaysBefore) ? 1 : 0;
                const auto top = [&](const QTextBlock& block) {
                    const QTextLayout* layout = block.layout();
                    return doc->documentLayout()->blockBoundingRect(block).top() +
                           (layout && layout->lineCount() > 0 ? layout->lineAt(0).y() : 0.0);
                };
                QVERIFY2(
                    static_cast<int>(top(b) / height) == static_cast<int>(top(b.next()) / height),
                    qPrintable(QStringLiteral("'%1' ends a page of height %2").arg(b.text()).arg(height)));
            }
        }
        QVERIFY(moved > 0); // some heights did put a heading at a page's foot
    }

    void otherFormatsAreCoresOutput() {
        const core::ReportInput r = hostileReport();
        for (const auto f :
             {core::ReportFormat::Html, core::ReportFormat::Markdown, core::ReportFormat::Json}) {
            const QString path =
                m_dir.filePath(QStringLiteral("report.") + QString::fromUtf8(core::toString(f).data()));
            QVERIFY(ui::ReportWriter::write(r, f, path));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), QByteArray::fromStdString(core::renderReport(r, f)));
        }
        QVERIFY(ui::ReportWriter::formatForPath(QStringLiteral("/x/y/plan.PDF")) == core::ReportFormat::Pdf);
        QVERIFY(ui::ReportWriter::formatForPath(QStringLiteral("plan.md")) == core::ReportFormat::Markdown);
        QVERIFY(!ui::ReportWriter::formatForPath(QStringLiteral("plan")));
    }

    void unwritablePathFailsWithAReason() {
        QString error;
        QVERIFY(
            !ui::ReportWriter::writePdf(hostileReport(), QStringLiteral("/nonexistent-dir/r.pdf"), &error));
        QVERIFY(error.contains(QStringLiteral("cannot write")));
    }

    void exportFromCommandLine() {
        const QString pdf = m_dir.filePath(QStringLiteral("cli.pdf"));
        QCOMPARE(ui::ReportWriter::exportFromCommandLine(
                     pdf, QStringLiteral(LP_TEST_DATA_DIR "/scenarios/default.json")),
                 0);
        QVERIFY(QFile::exists(pdf));
        const QString html = m_dir.filePath(QStringLiteral("cli.html"));
        QCOMPARE(ui::ReportWriter::exportFromCommandLine(html, QString()), 0); // the default scenario
        QFile file(html);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().startsWith("<!DOCTYPE html>"));

        core::Scenario bad = core::defaultScenario();
        bad.layout.tp = 3;
        const QString badFile = m_dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(core::saveScenarioFile(badFile.toStdString(), bad).has_value());
        QCOMPARE(ui::ReportWriter::exportFromCommandLine(m_dir.filePath(QStringLiteral("bad.pdf")), badFile),
                 2);
        QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("bad.pdf"))));
        QCOMPARE(ui::ReportWriter::exportFromCommandLine(pdf, m_dir.filePath(QStringLiteral("missing.json"))),
                 2);
    }
};

QTEST_MAIN(TestReportPdf)
#include "test_report_pdf.moc"
