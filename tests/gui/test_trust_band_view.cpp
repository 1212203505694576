// The band of measured runs like the plan (core/measured/TrustBand.h) on the Plan tab: the MFU gauge shades
// it, the step-time and throughput cards and the step-time chart quote it, the explanation gives its sentence
// and opens the runs it came from in the Validate tab; a plan no published run is like says so instead.
#include "WindowTestSupport.h"
#include "core/io/Presets.h"
#include "core/measured/TrustBand.h"
#include "ui/charts/MfuGauge.h"
#include "ui/charts/TimeChart.h"
#include "ui/document/BundledValidationGroups.h"
#include "ui/plan/ExplanationPanel.h"
#include "ui/plan/KeyFigures.h"
#include "ui/plan/PlanView.h"
#include "ui/shell/WindowTabs.h"
#include "ui/validate/ValidationModel.h"
#include "ui/validate/ValidationTab.h"
#include "ui/widgets/FigureLabel.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/InlineBanner.h"

#include <QDir>
#include <QPushButton>
#include <QTabWidget>
#include <QTest>
#include <QTextBrowser>

using namespace lp;

class TestTrustBandView : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ScenarioDocument* doc() const { return m_window->document(); }
    ui::PlanView* plan() const { return m_window->planView(); }
    QString stepDetail() const { return plan()->keyFigures()->figure(QStringLiteral("time.step"))->detail(); }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }
    void init() {
        m_window = test::openExploreWindow();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        ui::bundledTrustData(); // predicted in the worker; the Plan tab polls until it is there
    }
    void cleanup() { test::closeTestWindow(m_window); }

    void defaultScenarioShowsItsBand() {
        const auto band = ui::bundledTrustBand(doc()->scenario(), doc()->plan());
        QVERIFY(band && band->available); // the sets are found beside the checkout (tests/data/validation)
        QTRY_VERIFY(plan()->gauge()->showsTrustBand());
        QTRY_VERIFY2(
            stepDetail().contains(QStringLiteral("runs like it: ") + ui::qs(core::stepBandText(*band))),
            qPrintable(stepDetail()));
        const QString tokens = plan()->keyFigures()->figure(QStringLiteral("tokens_per_s"))->detail();
        QVERIFY(plan()
                    ->keyFigures()
                    ->figure(QStringLiteral("tokens_per_s"))
                    ->toolTip()
                    .contains(ui::qs(band->sentence)));
        QVERIFY(!tokens.isEmpty());
        QVERIFY(plan()
                    ->keyFigures()
                    ->figure(QStringLiteral("time.step"))
                    ->toolTip()
                    .contains(ui::qs(band->sentence)));
        QVERIFY(plan()->gauge()->toolTip().contains(ui::qs(band->sentence)));
        QVERIFY(plan()->timeChart()->headline().contains(ui::qs(core::trustLine(*band))));
        ui::ExplanationPanel* panel = m_window->explanationPanel();
        panel->showKey(QStringLiteral("time.step"));
        QTRY_VERIFY(panel->browser()->toPlainText().contains(ui::qs(band->sentence)));
        QVERIFY(panel->browser()->toHtml().contains(QStringLiteral("lp-validate:runs")));
        QCOMPARE(panel->trustRuns().size(), static_cast<qsizetype>(band->caseIds.size()));
    }

    void aPlanNoRunIsLikeSaysSo() {
        core::Scenario s = doc()->scenario();
        s.cluster.gpu = core::findGpuPreset("mi300x")->gpu;
        s.training.precision = core::Precision::Fp8;
        doc()->edit(s, QStringLiteral("gpu"));
        QTRY_VERIFY2(stepDetail().contains(QStringLiteral("no comparable published runs")),
                     qPrintable(stepDetail()));
        QVERIFY(!plan()->gauge()->showsTrustBand());
        QVERIFY(plan()->timeChart()->headline().contains(QStringLiteral("No comparable published runs")));
        ui::ExplanationPanel* panel = m_window->explanationPanel();
        panel->showKey(QStringLiteral("mfu"));
        QTRY_VERIFY(panel->browser()->toPlainText().contains(QStringLiteral("No comparable published runs")));
        QVERIFY(!panel->browser()->toHtml().contains(QStringLiteral("lp-validate:runs")));
        QVERIFY(panel->trustRuns().isEmpty());
    }

    void theRunsAreOneClickAway() {
        ui::ExplanationPanel* panel = m_window->explanationPanel();
        panel->showKey(QStringLiteral("mfu"));
        QTRY_VERIFY(!panel->trustRuns().isEmpty());
        const QStringList runs = panel->trustRuns();
        panel->showTrustRuns(); // what the link does
        ui::ValidationTab* validation = ui::WindowTabs::of(*m_window)->validation();
        QCOMPARE(m_window->tabs()->currentWidget(), static_cast<QWidget*>(validation));
        const ui::ValidationFilterModel* rows = validation->filterModel();
        QVERIFY(rows->rowCount() > 0);
        for (int r = 0; r < rows->rowCount(); ++r)
            QVERIFY(runs.contains(rows->index(r, 0).data(ui::ValidationModel::CaseIdRole).toString()));
        QVERIFY(validation->banner()->title().contains(QStringLiteral("behind the plan's band")));
        validation->loadCasesFile(validation->casesPath()); // another load shows every run again
        QVERIFY(rows->caseIds().isEmpty());
    }

    void theOtherSetsOfTheBandAreOneClickAwayToo() {
        ui::ExplanationPanel* panel = m_window->explanationPanel();
        panel->showKey(QStringLiteral("mfu"));
        QTRY_VERIFY(!panel->trustRuns().isEmpty());
        const QStringList runs = panel->trustRuns();
        panel->showTrustRuns();
        ui::ValidationTab* validation = ui::WindowTabs::of(*m_window)->validation();
        const QString first = validation->casesPath();
        const auto otherSets = [validation] {
            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // the last message's buttons
            QList<QPushButton*> buttons;
            for (QPushButton* b : validation->banner()->findChildren<QPushButton*>())
                if (b->objectName().startsWith(QLatin1String("bandSet:")))
                    buttons.append(b);
            return buttons;
        };
        // The default plan's band pools runs of several sets (reference, landmark, vTrain, ...).
        const QList<QPushButton*> buttons = otherSets();
        QVERIFY(!buttons.isEmpty());
        const QString target = buttons.front()->objectName().mid(QStringLiteral("bandSet:").size());
        QVERIFY(QDir::cleanPath(target) != QDir::cleanPath(first));
        buttons.front()->click();
        QCOMPARE(QDir::cleanPath(validation->casesPath()), QDir::cleanPath(target));
        const ui::ValidationFilterModel* rows = validation->filterModel();
        QVERIFY(rows->rowCount() > 0);
        for (int r = 0; r < rows->rowCount(); ++r)
            QVERIFY(runs.contains(rows->index(r, 0).data(ui::ValidationModel::CaseIdRole).toString()));
        QVERIFY(validation->banner()->isVisibleTo(validation));
        // ... and from there back to the first set.
        bool backToFirst = false;
        for (QPushButton* b : otherSets())
            backToFirst |= QDir::cleanPath(b->objectName().mid(8)) == QDir::cleanPath(first);
        QVERIFY(backToFirst);
    }
};

QTEST_MAIN(TestTrustBandView)
#include "test_trust_band_view.moc"
