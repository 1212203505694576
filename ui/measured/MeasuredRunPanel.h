#pragma once
// The "Measured run" view: load a training log or CSV, or paste step times; the warmup is detected
// and dropped (with a manual override); a chart shows the step time per step with the warmup shaded,
// the steady mean and its p10-p90 spread, and the plan's predicted step time; the verdict says in
// plain words what the gap means. All figures come from core (core/measured/RunLog.h).
#include "core/estimate/Plan.h"
#include "core/measured/RunAnalysis.h"
#include "core/model/Scenario.h"
#include "ui/document/FileChooser.h"

#include <QWidget>

#include <optional>

class QChart;
class QChartView;
class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QValueAxis;

namespace lp::ui {

class ChartLegend;
class ScenarioDocument;

class MeasuredRunPanel : public QWidget {
    Q_OBJECT
public:
    explicit MeasuredRunPanel(QWidget* parent = nullptr);

    // Compare with this scenario's plan (the run's tokens per step, GPUs and prediction).
    void setPlan(const core::Scenario& scenario, const core::Plan& plan);
    void clearPlan();
    // Follows the document: its scenario and plan whenever the plan changes.
    void attach(ScenarioDocument* doc);

    // Reads a log, CSV or numbers. False (and the reason shown in the panel) when nothing usable is found.
    bool loadFile(const QString& path);
    bool loadText(const QString& text, const QString& sourceName = QString());
    // nullopt: detect the warmup automatically.
    void setWarmupOverride(std::optional<int> samples);
    std::optional<int> warmupOverride() const;

    const std::optional<core::RunLog>& runLog() const { return m_log; }
    const std::optional<core::RunAnalysis>& analysis() const { return m_analysis; }
    QString verdictText() const; // the verdicts, as plain text
    QString errorText() const;   // why the last load failed; empty otherwise
    QChartView* chartView() const { return m_view; }
    ChartLegend* legend() const { return m_legend; }
    QSpinBox* warmupSpinBox() const { return m_warmup; }
    QPlainTextEdit* pasteEdit() const { return m_paste; }
    void setOpenFileChooser(FileChooser chooser) { m_chooseFile = std::move(chooser); }

public slots:
    void chooseFile();    // "Load log or CSV..."
    void analysePasted(); // "Analyse" the pasted text

signals:
    void analysisChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct StepAxes {
        QValueAxis* x = nullptr;
        QValueAxis* y = nullptr;
        bool clipped = false; // warmup values beyond the y range
    };
    StepAxes addAxes(const core::RunAnalysis& analysis);
    void applyChartFonts();
    void reanalyse();
    void updateChart();
    void updateText();
    core::RunLogOptions logOptions() const;

    QPushButton* m_load = nullptr;
    QComboBox* m_format = nullptr;
    QSpinBox* m_warmup = nullptr;
    QPlainTextEdit* m_paste = nullptr;
    QPushButton* m_analyse = nullptr;
    QLabel* m_source = nullptr;
    QLabel* m_error = nullptr;
    QChart* m_chart = nullptr;
    QChartView* m_view = nullptr;
    ChartLegend* m_legend = nullptr; // the series' names under the chart, wrapping
    QLabel* m_figures = nullptr;
    QLabel* m_verdicts = nullptr;

    std::optional<core::Scenario> m_scenario;
    std::optional<core::Plan> m_plan;
    std::optional<core::RunLog> m_log;
    std::optional<core::RunAnalysis> m_analysis;
    QString m_errorText;
    QString m_text; // the last input, read again when the format choice changes
    QString m_sourceName;
    FileChooser m_chooseFile = openFileDialogChooser();
};

} // namespace lp::ui
