// The "Measured run" view (ui/measured/MeasuredRunPanel): loading logs and pasted numbers, the warmup
// override, the chart (warmup shaded, steady mean and band, prediction) and the verdicts, all
// matching core's analysis.
#include "GuiTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/measured/RunAnalysis.h"
#include "ui/charts/ChartLegend.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/measured/MeasuredRunPanel.h"

#include <QFontInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include <cmath>

using namespace lp;

namespace {
QString logPath(const char* name) {
    return QStringLiteral(LP_TEST_DATA_DIR "/logs/") + QString::fromUtf8(name);
}
QStringList seriesNames(const ui::MeasuredRunPanel& panel) {
    QStringList names;
    for (auto* s : panel.chartView()->chart()->series())
        names << s->name();
    return names;
}
} // namespace

class TestMeasuredRunPanel : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    void megatronLogAgainstThePlan() {
        ui::MeasuredRunPanel panel;
        const core::Scenario s = core::defaultScenario();
        const core::Plan p = core::evaluate(s);
        panel.setPlan(s, p);
        QSignalSpy changed(&panel, &ui::MeasuredRunPanel::analysisChanged);
        QVERIFY(panel.loadFile(logPath("megatron.log")));
        QVERIFY(changed.count() >= 1);
        QVERIFY(panel.analysis().has_value());
        const auto expected =
            core::analyzeRun(*core::loadRunLog(logPath("megatron.log").toStdString()), s, p);
        QCOMPARE(panel.analysis()->warmup, expected.warmup);
        QCOMPARE(panel.analysis()->mean, expected.mean);
        QVERIFY(panel.analysis()->hasPlan);
        const QStringList names = seriesNames(panel);
        for (const char* n : {"warmup (dropped)", "steady p10-p90", "steady mean", "predicted", "step time"})
            QVERIFY2(names.contains(QString::fromUtf8(n)), n);
        auto* line = qobject_cast<QLineSeries*>(panel.chartView()->chart()->series().last());
        QVERIFY(line);
        QCOMPARE(line->count(), 50);
        QVERIFY(panel.verdictText().contains(QStringLiteral("warmup")));
        QVERIFY(panel.verdictText().contains(QStringLiteral("prediction")));
        // The legend under the chart names the same series, and wraps in a narrow panel instead of eliding.
        ui::ChartLegend* legend = panel.legend();
        QCOMPARE(legend->count(), names.size());
        for (int i = 0; i < legend->count(); ++i)
            QVERIFY(names.contains(legend->entryName(i)));
        panel.resize(360, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QSet<int> lines;
        for (int i = 0; i < legend->count(); ++i) {
            QVERIFY(legend->rect().contains(legend->entry(i)->geometry()));
            lines.insert(legend->entry(i)->y());
        }
        QVERIFY(lines.size() >= 2);
        // Without a plan there is no prediction, and no entry for it.
        panel.clearPlan();
        QCOMPARE(legend->count(), names.size() - 1);
        for (int i = 0; i < legend->count(); ++i)
            QVERIFY(legend->entryName(i) != QStringLiteral("predicted"));
    }

    void warmupOverrideReanalyses() {
        ui::MeasuredRunPanel panel;
        QVERIFY(panel.loadFile(logPath("steps.csv")));
        QCOMPARE(panel.analysis()->warmup, 2);
        QVERIFY(!panel.warmupOverride());
        panel.warmupSpinBox()->setValue(0);
        QCOMPARE(panel.analysis()->warmup, 0);
        QVERIFY(panel.analysis()->warmupOverridden);
        QVERIFY(panel.verdictText().contains(QStringLiteral("look like warmup")));
        QVERIFY(!seriesNames(panel).contains(QStringLiteral("warmup (dropped)")));
        panel.setWarmupOverride(std::nullopt);
        QCOMPARE(panel.warmupSpinBox()->text(), QStringLiteral("auto"));
        QCOMPARE(panel.analysis()->warmup, 2);
    }

    void pastedNumbersAndErrors() {
        ui::MeasuredRunPanel panel;
        panel.pasteEdit()->setPlainText(QStringLiteral("12.1 6.0 5.1 5.0 5.02 4.98 5.01 5.0 4.99"));
        panel.analysePasted();
        // The step axis ticks whole steps, every one or every few, labelled as whole numbers.
        const auto axes = panel.chartView()->chart()->axes(Qt::Horizontal);
        QCOMPARE(axes.size(), 1);
        auto* steps = qobject_cast<QValueAxis*>(axes.first());
        QVERIFY(steps);
        QCOMPARE(steps->tickType(), QValueAxis::TicksDynamic);
        QVERIFY(steps->tickInterval() >= 1);
        QCOMPARE(steps->tickInterval(), std::round(steps->tickInterval()));
        QCOMPARE(steps->labelFormat(), QStringLiteral("%.0f"));
        QVERIFY(panel.errorText().isEmpty());
        QCOMPARE(panel.analysis()->samples, 9);
        QVERIFY(panel.verdictText().contains(QStringLiteral("scenario"))); // no plan to compare with

        QVERIFY(!panel.loadText(QStringLiteral("nothing to see here")));
        QVERIFY(!panel.errorText().isEmpty());
        QVERIFY(!panel.analysis());
        QVERIFY(!panel.loadFile(logPath("does-not-exist.log")));
        QVERIFY(panel.errorText().contains(QStringLiteral("Cannot read")));
    }

    void followsTheDocumentsPlan() {
        ui::ScenarioDocument doc;
        ui::MeasuredRunPanel panel;
        panel.attach(&doc);
        QVERIFY(panel.loadFile(logPath("torchtitan.log")));
        QVERIFY(panel.analysis()->hasPlan);
        QVERIFY(panel.analysis()->kind == core::SeriesKind::StepSeconds);
        const double before = panel.analysis()->predictedStepSeconds;
        doc.setLayoutValue(core::LayoutAxis::Accumulation, 32); // another plan
        QVERIFY(panel.analysis()->predictedStepSeconds != before);
        panel.clearPlan();
        QVERIFY(panel.analysis()->kind == core::SeriesKind::TokensPerSecondPerGpu);
    }

    void theEmptyHintReadsAsTextNotAsColumns() {
        ui::MeasuredRunPanel panel;
        const auto hintLabels = [&panel] {
            QList<QLabel*> found;
            for (auto* l : panel.findChildren<QLabel*>())
                if (l->text().contains(QStringLiteral("No run loaded")))
                    found << l;
            return found;
        };
        const auto labels = hintLabels();
        QCOMPARE(labels.size(), 1);
        QVERIFY(!QFontInfo(labels.first()->font()).fixedPitch()); // the fixed font is for the figures
        QVERIFY(panel.loadFile(logPath("megatron.log")));
        QVERIFY(hintLabels().isEmpty());
    }

    void fileChooserLoads() {
        ui::MeasuredRunPanel panel;
        panel.setOpenFileChooser(
            [](QWidget*, const QString&, const QString&, const QString&) { return logPath("noisy.csv"); });
        panel.chooseFile();
        QVERIFY(panel.analysis().has_value());
        QVERIFY(panel.verdictText().contains(QStringLiteral("varies")));
    }
};

QTEST_MAIN(TestMeasuredRunPanel)
#include "test_measured_run_panel.moc"
