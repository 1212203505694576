#include "ui/measured/MeasuredRunPanel.h"

#include "core/util/NumberFormat.h"
#include "ui/charts/ChartBuilders.h"
#include "ui/charts/ChartLegend.h"
#include "ui/charts/ChartStyle.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"
#include "ui/widgets/ScrollPage.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <algorithm>
#include <cmath>

namespace lp::ui {
namespace {

const QColor kSeriesColor(0x4E, 0x79, 0xA7);
const QColor kMeanColor(0x2F, 0x4B, 0x7C);
const QColor kPredictedColor(0xF2, 0x8E, 0x2B);
const QColor kWarmupColor(0x9D, 0x94, 0x8F);

QAreaSeries* band(double x0, double x1, double yLow, double yHigh, const QColor& color, const QString& name) {
    auto* area = new QAreaSeries(lineSeries({x0, yHigh}, {x1, yHigh}), lineSeries({x0, yLow}, {x1, yLow}));
    area->upperSeries()->setParent(area);
    area->lowerSeries()->setParent(area);
    area->setName(name);
    area->setColor(color);
    area->setBorderColor(Qt::transparent);
    return area;
}

} // namespace

MeasuredRunPanel::MeasuredRunPanel(QWidget* parent)
    : QWidget(parent), m_load(new QPushButton(tr("&Load log or CSV..."), this)),
      m_format(new QComboBox(this)), m_warmup(new QSpinBox(this)), m_paste(new QPlainTextEdit(this)),
      m_analyse(new QPushButton(tr("&Analyse pasted"), this)), m_source(new QLabel(this)),
      m_error(new QLabel(this)), m_chart(new QChart), m_view(new QChartView(m_chart, this)),
      m_figures(new QLabel(this)), m_verdicts(new QLabel(this)) {
    setObjectName(QStringLiteral("measuredRunPanel"));
    for (const auto f :
         {core::RunLogFormat::Auto, core::RunLogFormat::Megatron, core::RunLogFormat::Torchtitan,
          core::RunLogFormat::Csv, core::RunLogFormat::Numbers})
        m_format->addItem(f == core::RunLogFormat::Auto ? tr("Detect format") : qs(core::displayName(f)),
                          static_cast<int>(f));
    m_format->setToolTip(tr("How to read the input: Megatron-LM or torchtitan log lines, CSV, or numbers"));
    m_warmup->setRange(-1, 1000000);
    m_warmup->setValue(-1);
    m_warmup->setSpecialValueText(tr("auto"));
    m_warmup->setPrefix(tr("drop "));
    m_warmup->setToolTip(tr("Warmup samples to drop: auto detects them (docs/reports.md), a number drops "
                            "exactly that many from the start"));
    m_paste->setPlaceholderText(
        tr("Paste step times (seconds or ms), CSV rows, or Megatron-LM / torchtitan log lines"));
    m_paste->setMaximumHeight(90);
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: %1").arg(palette::error().name()));
    m_error->hide();
    m_figures->setTextFormat(Qt::PlainText);
    m_figures->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont)); // aligned label columns
    m_figures->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures->setWordWrap(true);
    m_verdicts->setTextFormat(Qt::RichText);
    m_verdicts->setWordWrap(true);
    m_verdicts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(240);
    m_chart->legend()->hide(); // m_legend, under the chart, wraps where this one would elide
    m_legend = new ChartLegend(this);

    // One row that wraps in a narrow page, "Analyse pasted" at its right end.
    auto* controls = new FlowLayout;
    controls->addWidget(m_load);
    controls->addWidget(m_format);
    controls->addWidget(controlGroup(this, {new QLabel(tr("Warmup:"), this), m_warmup}));
    controls->addWidget(m_analyse);
    controls->setPushRight(m_analyse);
    auto* layout = new QVBoxLayout(scrollingContent(this));
    layout->addLayout(controls);
    layout->addWidget(m_paste);
    layout->addWidget(m_source);
    layout->addWidget(m_error);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_legend);
    layout->addWidget(m_figures);
    layout->addWidget(m_verdicts);

    connect(m_load, &QPushButton::clicked, this, &MeasuredRunPanel::chooseFile);
    connect(m_analyse, &QPushButton::clicked, this, &MeasuredRunPanel::analysePasted);
    connect(m_warmup, &QSpinBox::valueChanged, this, [this] { reanalyse(); });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_text.isEmpty())
            loadText(m_text, m_sourceName); // read the same input the new way
    });
    applyChartFonts();
    updateText();
}

void MeasuredRunPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        applyChartFonts();
        updateChart();
    }
}

void MeasuredRunPanel::applyChartFonts() {
    // The chart follows the page's font and colours (presentation mode, a dark theme) as the Plan's do.
    applyChartTheme(m_chart, palette());
    m_chart->setTitleFont(chartTitleFont(font()));
    if (m_legend)
        m_legend->setFont(smallChartFont(font()));
}

core::RunLogOptions MeasuredRunPanel::logOptions() const {
    core::RunLogOptions o;
    o.format = static_cast<core::RunLogFormat>(m_format->currentData().toInt());
    return o;
}

void MeasuredRunPanel::setPlan(const core::Scenario& scenario, const core::Plan& plan) {
    m_scenario = scenario;
    m_plan = plan;
    reanalyse();
}

void MeasuredRunPanel::clearPlan() {
    m_scenario.reset();
    m_plan.reset();
    reanalyse();
}

void MeasuredRunPanel::attach(ScenarioDocument* doc) {
    if (!doc)
        return;
    connect(doc, &ScenarioDocument::planChanged, this,
            [this, doc] { setPlan(doc->scenario(), doc->plan()); });
    setPlan(doc->scenario(), doc->plan());
}

bool MeasuredRunPanel::loadText(const QString& text, const QString& sourceName) {
    m_text = text;
    m_sourceName = sourceName;
    auto parsed = core::parseRunLog(text.toStdString(), logOptions());
    if (!parsed) {
        m_errorText = qs(parsed.error().message());
        m_log.reset();
        m_analysis.reset();
        m_error->setText(m_errorText);
        m_error->show();
        m_source->clear();
        updateChart();
        updateText();
        emit analysisChanged();
        return false;
    }
    m_errorText.clear();
    m_error->hide();
    m_log = std::move(*parsed);
    QString source = sourceName.isEmpty() ? tr("Pasted text") : sourceName;
    source += tr(": %n step records", nullptr, static_cast<int>(m_log->samples.size())) +
              QStringLiteral(" (%1)").arg(qs(core::displayName(m_log->format)));
    if (!m_log->warnings.empty())
        source +=
            tr(", %n lines skipped (first: line %1: %2)", nullptr, static_cast<int>(m_log->warnings.size()))
                .arg(m_log->warnings.front().line)
                .arg(qs(m_log->warnings.front().message));
    if (!m_log->unitNote.empty())
        source += QStringLiteral("; ") + qs(m_log->unitNote);
    m_source->setText(source);
    m_source->setWordWrap(true);
    reanalyse();
    return true;
}

bool MeasuredRunPanel::loadFile(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_errorText = tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        m_error->setText(m_errorText);
        m_error->show();
        emit analysisChanged();
        return false;
    }
    return loadText(QString::fromUtf8(file.readAll()), QFileInfo(path).fileName());
}

void MeasuredRunPanel::chooseFile() {
    const QString path = m_chooseFile(this, tr("Load a training log or step times"), QDir::homePath(),
                                      tr("Logs and CSV (*.log *.txt *.csv *.tsv);;All files (*)"));
    if (!path.isEmpty())
        loadFile(path);
}

void MeasuredRunPanel::analysePasted() {
    loadText(m_paste->toPlainText());
}

void MeasuredRunPanel::setWarmupOverride(std::optional<int> samples) {
    m_warmup->setValue(samples ? std::max(*samples, 0) : -1); // reanalyses through valueChanged
}

std::optional<int> MeasuredRunPanel::warmupOverride() const {
    return m_warmup->value() < 0 ? std::nullopt : std::optional<int>(m_warmup->value());
}

void MeasuredRunPanel::reanalyse() {
    if (m_log) {
        core::RunAnalysisOptions o;
        o.warmupSamples = warmupOverride();
        m_analysis = (m_scenario && m_plan) ? core::analyzeRun(*m_log, *m_scenario, *m_plan, o)
                                            : core::analyzeRun(*m_log, o);
    } else {
        m_analysis.reset();
    }
    updateChart();
    updateText();
    emit analysisChanged();
}

void MeasuredRunPanel::updateChart() {
    clearChart(m_chart);
    m_legend->truncate(0);
    if (!m_analysis || m_analysis->samples == 0) {
        m_chart->setTitle(tr("Load a log, a CSV or pasted step times to see the run"));
        return;
    }
    const core::RunAnalysis& a = *m_analysis;
    const bool time = a.kind == core::SeriesKind::StepSeconds;
    const StepAxes axes = addAxes(a);
    int entry = 0;
    const auto add = [&](QAbstractSeries* series, const QColor& color, const QString& name,
                         ChartLegend::Mark mark) {
        attachSeries(m_chart, series, axes.x, axes.y);
        m_legend->setEntry(entry++, color, name, QString(), mark);
    };
    const auto& steps = a.steps;
    const double x0 = axes.x->min(), x1 = axes.x->max();
    const int w = a.warmup;
    if (w > 0) {
        // The warmup band ends half way between its last step and the first steady one.
        const double xw = w < a.samples ? (static_cast<double>(steps[static_cast<std::size_t>(w - 1)]) +
                                           static_cast<double>(steps[static_cast<std::size_t>(w)])) /
                                              2.0
                                        : x1;
        QColor c = kWarmupColor;
        c.setAlpha(70);
        add(band(x0, xw, axes.y->min(), axes.y->max(), c, tr("warmup (dropped)")), c, tr("warmup (dropped)"),
            ChartLegend::Mark::Box);
    }
    if (w < a.samples) {
        const double xs = static_cast<double>(steps[static_cast<std::size_t>(w)]);
        QColor c = kSeriesColor;
        c.setAlpha(45);
        add(band(xs, x1, a.p10, a.p90, c, tr("steady p10-p90")), c, tr("steady p10-p90"),
            ChartLegend::Mark::Box);
        add(lineSeries({xs, a.mean}, {x1, a.mean}, tr("steady mean"), seriesPen(kMeanColor, Qt::DashLine)),
            kMeanColor, tr("steady mean"), ChartLegend::Mark::DashedLine);
    }
    if (a.hasPlan && time)
        add(lineSeries({x0, a.predictedStepSeconds}, {x1, a.predictedStepSeconds}, tr("predicted"),
                       seriesPen(kPredictedColor, Qt::DotLine)),
            kPredictedColor, tr("predicted"), ChartLegend::Mark::DottedLine);
    auto* series = new QLineSeries;
    series->setName(time ? tr("step time") : tr("tokens/s per GPU"));
    for (std::size_t i = 0; i < a.series.size(); ++i)
        series->append(static_cast<double>(steps[i]), a.series[i]);
    series->setPen(seriesPen(kSeriesColor, Qt::SolidLine, 1.5));
    series->setPointsVisible(a.series.size() <= 200);
    add(series, kSeriesColor, series->name(), ChartLegend::Mark::Line);
    // Short enough not to be elided in a narrow panel; the tooltip says what "clipped" means.
    m_chart->setTitle(axes.clipped ? tr("Per step (warmup clipped)") : tr("Per step"));
    m_view->setToolTip(axes.clipped ? tr("Warmup values beyond the axis are clipped: the axis is scaled to "
                                         "the steady steps, the band and the prediction.")
                                    : QString());
}

// The steps across; up the range of the steady samples, the band and the prediction (warmup peaks above are
// clipped).
MeasuredRunPanel::StepAxes MeasuredRunPanel::addAxes(const core::RunAnalysis& a) {
    const bool time = a.kind == core::SeriesKind::StepSeconds;
    double lo = a.min, hi = a.max;
    if (a.hasPlan && time) {
        lo = std::min(lo, a.predictedStepSeconds);
        hi = std::max(hi, a.predictedStepSeconds);
    }
    const double span = std::max(hi - lo, std::fabs(hi) * 0.02);
    const double yLow = std::max(0.0, lo - span * 0.6);
    const double yHigh = hi + span * 0.6;
    StepAxes axes;
    for (double v : a.series)
        axes.clipped = axes.clipped || v > yHigh || v < yLow;
    axes.x = new QValueAxis;
    axes.x->setTitleText(tr("step"));
    axes.x->setRange(static_cast<double>(a.steps.front()),
                     static_cast<double>(a.steps.back()) + (a.steps.size() == 1 ? 1.0 : 0.0));
    // Ticks on whole, round step numbers: Qt's five evenly spaced ticks fall between steps (3.75 on 1-12),
    // and printed as whole numbers they put "3" where step 3.75 is.
    setRoundTicks(axes.x, 7);
    if (axes.x->tickInterval() < 1) {
        axes.x->setTickInterval(1);
        axes.x->setLabelFormat(QStringLiteral("%.0f"));
    }
    axes.y = new QValueAxis;
    axes.y->setTitleText(time ? tr("step time (s)") : tr("tokens/s per GPU"));
    axes.y->setRange(yLow, yHigh);
    setRoundTicks(axes.y, 6);
    m_chart->addAxis(axes.x, Qt::AlignBottom);
    m_chart->addAxis(axes.y, Qt::AlignLeft);
    styleAxis(axes.x, palette(), smallChartFont(font()));
    styleAxis(axes.y, palette(), smallChartFont(font()));
    return axes;
}

QString MeasuredRunPanel::verdictText() const {
    if (!m_analysis)
        return {};
    QStringList lines;
    for (const auto& v : m_analysis->verdicts)
        lines << qs(v.text);
    return lines.join(QLatin1Char('\n'));
}

QString MeasuredRunPanel::errorText() const {
    return m_errorText;
}

void MeasuredRunPanel::updateText() {
    if (!m_analysis) {
        // The hint goes in the proportional-font label: the fixed font is for the figures' columns.
        m_figures->clear();
        m_verdicts->setText(m_errorText.isEmpty()
                                ? tr("No run loaded. Compare a real run with the plan: load the training "
                                     "log, a CSV of step times, or paste the numbers.")
                                : QString());
        return;
    }
    m_figures->setText(qs(core::runFiguresText(*m_analysis)).trimmed());
    QString html;
    for (const auto& v : m_analysis->verdicts) {
        const QColor c = v.severity == core::Severity::Warning ? palette::warning()
                         : v.severity == core::Severity::Error ? palette::error()
                                                               : palette::info();
        html +=
            QStringLiteral("<p><b style=\"color:%1\">%2</b> %3</p>")
                .arg(c.name(), qs(core::toString(v.severity)).toHtmlEscaped(), qs(v.text).toHtmlEscaped());
    }
    m_verdicts->setText(html);
}

} // namespace lp::ui
