// The "Calibrate" tab (ui/calibrate): on this machine (no GPU, or a build without CUDA) it explains
// what is missing and offers to import a profile; importing applies it and moves the MFU. With a
// pretend two-GPU machine (a test backend) the benchmarks run in a worker thread with progress, live
// charts and cancel, and the measured profile applies to the scenario.
#include "GuiTestSupport.h"
#include "WindowTestSupport.h"
#include "core/estimate/Evaluate.h"
#include "core/estimate/KeyFigures.h"
#include "core/io/Presets.h"
#include "core/io/ProfileJson.h"
#include "cuda/Calibrate.h"
#include "cuda/Device.h"
#include "cuda/Workload.h"
#include "ui/calibrate/BenchmarkPanel.h"
#include "ui/calibrate/CalibrateTab.h"
#include "ui/document/ScenarioDocument.h"
#include "ui/plan/PlanView.h"
#include "ui/shell/MainWindow.h"
#include "ui/shell/TeachingMode.h"
#include "ui/shell/WindowMenus.h"
#include "ui/shell/WindowTabs.h"
#include "ui/teach/PresentationMode.h"
#include "ui/validate/ValidationTab.h"
#include "ui/widgets/InlineBanner.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTreeWidget>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLineSeries>
#include <QtCharts/QScatterSeries>
#include <QtCharts/QValueAxis>
#include <QtCharts/QXYSeries>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

using namespace lp;

namespace {

void keepScreenshot(QWidget& w, const QString& name) {
    QTest::qWait(150); // charts lay themselves out on the next turns of the event loop
    const QImage image = w.grab().toImage();
    QVERIFY(!image.isNull());
    const QString dir = qEnvironmentVariable("LP_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(image.save(QDir(dir).filePath(name)));
}

calib::DeviceInfo fakeH100(int index) {
    calib::DeviceInfo d;
    d.index = index;
    d.name = "NVIDIA H100 80GB HBM3";
    d.smCount = 132;
    d.memoryBytes = 79.6 * 1024 * 1024 * 1024;
    d.smClockHz = 1.98e9;
    d.memoryClockHz = 2.619e9;
    d.memoryBusWidthBits = 5120;
    d.ccMajor = 9;
    d.ccMinor = 0;
    d.driverVersion = 12040;
    d.runtimeVersion = 12040;
    return d;
}

calib::Stats stats(double seconds) {
    calib::Stats s;
    s.median = s.min = s.max = seconds;
    s.spread = 0.01;
    s.samples = 5;
    return s;
}

// A pretend machine: `gpus` H100s that reach plausible fractions of their peaks. Each item sleeps
// `itemMs` so that tests can cancel in the middle.
ui::CalibrationBackend fakeBackend(int gpus, int itemMs = 0, std::shared_ptr<std::atomic<int>> calls = {}) {
    ui::CalibrationBackend b;
    b.hasCudaSupport = [] { return true; };
    b.buildDescription = [] { return std::string("pretend CUDA build for tests"); };
    b.detectGpus = [gpus](std::string* why) {
        std::vector<calib::DeviceInfo> out;
        for (int i = 0; i < gpus; ++i)
            out.push_back(fakeH100(i));
        if (out.empty() && why)
            *why = "no CUDA-capable device is detected";
        return out;
    };
    b.run = [gpus, itemMs, calls](const calib::CalibrationRequest& r,
                                  const calib::ProgressCallback& progress) {
        if (calls)
            ++*calls;
        calib::CalibrationResult res;
        res.device = fakeH100(r.device);
        res.date = "2025-01-31";
        res.libraries = "cuBLASLt (pretend)";
        const int dtypes = r.fp8 ? 2 : 1;
        const std::vector<calib::Collective> ops = {
            calib::Collective::AllReduce, calib::Collective::AllGather, calib::Collective::ReduceScatter,
            calib::Collective::SendRecv};
        const bool hold = r.sustainSeconds > 0 && !r.gemms.empty();
        const int total = static_cast<int>(r.gemms.size() + (hold ? 1 : 0)) * dtypes +
                          static_cast<int>(r.hbmBytes.size()) * 2 +
                          (r.nccl && gpus >= 2 ? static_cast<int>(r.commBytes.size() * ops.size()) : 0);
        int done = 0;
        const auto step = [&](const char* phase, const std::string& item) {
            if (itemMs > 0)
                std::this_thread::sleep_for(std::chrono::milliseconds(itemMs));
            calib::Progress p{done, total, phase, item, &res};
            ++done;
            return !progress || progress(p);
        };
        const auto cancelled = [&] {
            res.cancelled = true;
            res.error = "cancelled";
            return res;
        };
        for (int d = 0; d < dtypes; ++d)
            for (const auto& g : r.gemms) {
                if (!step("GEMM", g.label))
                    return cancelled();
                calib::GemmMeasurement m;
                m.shape = g;
                m.dtype = d == 0 ? calib::GemmDtype::Bf16 : calib::GemmDtype::Fp8;
                const double peak = d == 0 ? 989e12 : 1979e12;
                const double f = g.flops();
                m.flopsPerSecond = peak * 0.8 * f / (f + 4e10);
                m.seconds = stats(f / m.flopsPerSecond);
                res.gemms.push_back(m);
            }
        for (int d = 0; hold && d < dtypes; ++d) { // the fastest GEMM held at 85% (a power-limited H100)
            const calib::GemmMeasurement* best = nullptr;
            for (const auto& g : res.gemms)
                if (static_cast<int>(g.dtype) == d && (!best || g.flopsPerSecond > best->flopsPerSecond))
                    best = &g;
            if (!step("GEMM", best->shape.label + " held for 4 s"))
                return cancelled();
            calib::SustainedGemm h;
            h.shape = best->shape;
            h.dtype = best->dtype;
            h.windowSeconds = 0.25;
            h.burstFlopsPerSecond = best->flopsPerSecond;
            h.heldFlopsPerSecond = 0.85 * best->flopsPerSecond;
            h.windowFlops.assign(16, h.heldFlopsPerSecond);
            res.sustained.push_back(h);
        }
        for (auto method : {calib::HbmMethod::Memcpy, calib::HbmMethod::Kernel})
            for (double bytes : r.hbmBytes) {
                if (!step("HBM", std::to_string(bytes)))
                    return cancelled();
                calib::HbmMeasurement h;
                h.method = method;
                h.bufferBytes = bytes;
                h.bytesMoved = 2 * bytes;
                h.bytesPerSecond =
                    (method == calib::HbmMethod::Kernel ? 3.0e12 : 2.7e12) * bytes / (bytes + 8e6);
                h.seconds = stats(h.bytesMoved / h.bytesPerSecond);
                res.hbm.push_back(h);
            }
        if (r.nccl && gpus >= 2) {
            res.gpuCount = gpus;
            for (auto op : ops)
                for (double bytes : r.commBytes) {
                    if (!step("NCCL", std::to_string(bytes)))
                        return cancelled();
                    calib::CommMeasurement c;
                    c.op = op;
                    c.ranks = gpus;
                    c.bytes = bytes;
                    const double peak = op == calib::Collective::SendRecv    ? 300e9
                                        : op == calib::Collective::AllReduce ? 380e9
                                                                             : 360e9;
                    c.busBytesPerSecond =
                        peak * bytes / (bytes + (op == calib::Collective::AllReduce ? 6e6 : 3e6));
                    const double factor =
                        op == calib::Collective::AllReduce ? 2.0 * (gpus - 1) / gpus : (gpus - 1.0) / gpus;
                    c.algBytesPerSecond = c.busBytesPerSecond / factor;
                    c.seconds = stats(bytes / c.algBytesPerSecond);
                    res.comm.push_back(c);
                }
        }
        calib::Progress last{done, total, "done", "", &res};
        if (progress)
            progress(last);
        res.ok = true;
        res.elapsedSeconds = 1.5;
        return res;
    };
    return b;
}

// A profile "measured elsewhere" for the scenario's GPU: GEMMs 15% faster than the built-in curve.
core::HardwareProfile fasterProfile(const core::Scenario& s) {
    core::HardwareProfile p = core::builtinProfile(s.cluster.gpu);
    for (auto& point : p.gemmEfficiency.points)
        point.second = std::min(0.95, point.second * 1.15);
    p.name = "measured on a test server";
    p.origin = "measured";
    p.measuredOn = "NVIDIA H100 80GB HBM3";
    p.date = "2025-01-31";
    p.gpuId = s.cluster.gpu.id;
    return p;
}

int points(QChartView* view) {
    int n = 0;
    for (auto* s : view->chart()->series())
        if (auto* xy = qobject_cast<QXYSeries*>(s);
            xy && (qobject_cast<QScatterSeries*>(s) || xy->pointsVisible()))
            n += xy->count();
    return n;
}

// One scroll level (the page's) reaches every part of the Calibrate tab whole.
void verifyEverythingReachable(ui::CalibrateTab& tab, const QString& screenshot) {
    const QList<QScrollArea*> scrolls = tab.findChildren<QScrollArea*>();
    QCOMPARE(scrolls.size(), 1);
    QScrollArea* page = scrolls.front();
    QCOMPARE(page->objectName(), QStringLiteral("pageScroll"));
    keepScreenshot(*page->widget(), screenshot);
    QVERIFY2(
        page->widget()->width() <= page->viewport()->width(), // never sideways
        qPrintable(
            QStringLiteral("%1 px wide in %2").arg(page->widget()->width()).arg(page->viewport()->width())));
    QVERIFY(page->verticalScrollBar()->maximum() > 0); // it scrolls, down to the charts
    auto* settings = tab.findChild<QWidget*>(QStringLiteral("calibrateSettings"));
    auto* benchmarks = tab.findChild<ui::BenchmarkPanel*>();
    QVERIFY(settings && benchmarks);
    for (QWidget* target : std::initializer_list<QWidget*>{
             tab.explanationPanel(), benchmarks, tab.runButton(), tab.applyButton(), tab.gemmChartView(),
             tab.hbmChartView(), tab.busChartView()}) {
        // Scrolled as a person would, down (or up) until the whole of it shows.
        QScrollBar* bar = page->verticalScrollBar();
        const int top = target->mapTo(page->widget(), QPoint(0, 0)).y();
        if (top + target->height() > bar->value() + page->viewport()->height())
            bar->setValue(top + target->height() - page->viewport()->height());
        if (top < bar->value())
            bar->setValue(top);
        QCoreApplication::processEvents();
        const QRect shown(target->mapTo(page->viewport(), QPoint(0, 0)), target->size());
        QVERIFY2(page->viewport()->rect().contains(shown),
                 qPrintable(QStringLiteral("%1 is not whole on the page: %2 px high at %3 in %4")
                                .arg(target->objectName())
                                .arg(shown.height())
                                .arg(shown.y())
                                .arg(page->viewport()->height())));
        QVERIFY(target->isVisible());
    }
    QVERIFY(benchmarks->height() >= benchmarks->minimumSizeHint().height());
    for (QLabel* label : settings->findChildren<QLabel*>())
        if (label->isVisible() && label->wordWrap() && !label->text().isEmpty())
            QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                     qPrintable(QStringLiteral("cut: ") + label->text().left(60)));
    // A chart elides an axis title it lacks the room for.
    QTest::qWait(150);
    QStringList titles;
    for (QGraphicsItem* item : tab.busChartView()->scene()->items())
        if (auto* text = dynamic_cast<QGraphicsTextItem*>(item); text && text->isVisible())
            titles << text->toPlainText();
    for (QAbstractAxis* axis : tab.busChartView()->chart()->axes())
        QVERIFY2(titles.contains(axis->titleText()),
                 qPrintable(axis->titleText() + QStringLiteral(" is cut")));
}

} // namespace

class TestCalibrateTab : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString writeProfile(const core::HardwareProfile& p, const QString& name) {
        const QString path = m_dir.filePath(name);
        auto saved = core::saveProfileFile(path.toStdString(), p);
        if (!saved)
            qWarning("%s", saved.error().c_str());
        return path;
    }

private slots:
    void initTestCase() { test::isolateUserFolders(m_dir); }

    // The real backend on this machine: no GPU (or no CUDA in the build) -> the explanation, never a crash.
    void explainsWhatIsMissingOnThisMachine() {
        ui::ScenarioDocument doc;
        ui::CalibrateTab tab(doc);
        tab.resize(1400, 900);
        QSignalSpy detected(&tab, &ui::CalibrateTab::gpusDetected);
        tab.show(); // the first show looks for GPUs, in a worker thread
        QTRY_VERIFY_WITH_TIMEOUT(tab.detectionDone(), 30000);
        QCOMPARE(detected.count(), 1);
        QAbstractItemModelTester gpuTester(tab.gpuList()->model(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester tableTester(tab.measurementsTable()->model(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(tab.buildHasCuda(), calib::hasCudaSupport());
        if (!tab.gpus().empty())
            QSKIP("this machine has a usable GPU: the no-GPU path is not what it shows");
        QVERIFY(tab.explanationPanel()->isVisibleTo(&tab));
        QVERIFY(!tab.gpuList()->isVisibleTo(&tab));
        const QString text = tab.explanationLabel()->text();
        if (calib::hasCudaSupport()) {
            QVERIFY2(text.contains(QStringLiteral("NVIDIA driver")), qPrintable(text));
        } else {
            QVERIFY2(text.contains(QStringLiteral("LP_BUILD_CUDA=ON")), qPrintable(text));
        }
        QVERIFY(text.contains(QStringLiteral("import")));
        QVERIFY(!tab.unavailableReason().isEmpty());
        QVERIFY(tab.explanationImportButton()->isVisibleTo(&tab));
        QVERIFY(tab.importButton()->isVisibleTo(&tab));
        QVERIFY(tab.importButton()->isEnabled());
        QVERIFY(!tab.runButton()->isEnabled());
        QVERIFY(!tab.canCalibrate());
        QVERIFY(!tab.startCalibration());
        QVERIFY(!tab.isRunning());
        // Charts show what the planner assumes (the active profile) even without measurements.
        QVERIFY(tab.gemmChartView()->chart()->series().size() >= 2);
        keepScreenshot(tab, QStringLiteral("calibrate-no-gpu.png"));
    }

    void explainsABuildWithoutCuda() {
        ui::ScenarioDocument doc;
        ui::CalibrationBackend b;
        b.hasCudaSupport = [] { return false; };
        b.buildDescription = [] { return std::string(calib::kNoCudaBuildMessage); };
        b.detectGpus = [](std::string* why) {
            if (why)
                *why = calib::kNoCudaBuildMessage;
            return std::vector<calib::DeviceInfo>{};
        };
        ui::CalibrateTab tab(doc, b);
        tab.detectGpus();
        QTRY_VERIFY(tab.detectionDone());
        const QString text = tab.explanationLabel()->text();
        QVERIFY(text.contains(QStringLiteral("LP_BUILD_CUDA=ON")));
        QVERIFY(text.contains(QStringLiteral("CUDA toolkit")));
        QVERIFY(text.contains(QStringLiteral("layout-planner-cli calibrate")));
        QVERIFY(tab.explanationPanel()->isVisibleTo(&tab));
        QVERIFY(tab.explanationImportButton()->isVisibleTo(&tab));
        QVERIFY(!tab.runButton()->isEnabled());
        QVERIFY(tab.unavailableReason().contains(QStringLiteral("LP_BUILD_CUDA=ON")));
    }

    void importingAProfileAppliesItAndMovesTheMfu() {
        ui::ScenarioDocument doc;
        ui::CalibrateTab tab(doc, fakeBackend(0));
        tab.resize(1400, 900);
        tab.detectGpus();
        QTRY_VERIFY(tab.detectionDone());
        QVERIFY(tab.explanationPanel()->isVisibleTo(&tab));
        const double mfuBefore = doc.plan().mfu;
        QVERIFY(!tab.isOverrideActive());
        QVERIFY(tab.activeProfileText().contains(QStringLiteral("built-in")));

        const core::HardwareProfile measured = fasterProfile(doc.scenario());
        const QString path = writeProfile(measured, QStringLiteral("faster.json"));
        tab.setOpenFileChooser(
            [&](QWidget*, const QString&, const QString&, const QString&) { return path; });
        QSignalSpy applied(&tab, &ui::CalibrateTab::profileApplied);
        tab.explanationImportButton()->click(); // the import offered in the explanation
        QCOMPARE(applied.count(), 1);
        QCOMPARE(doc.profile(), measured);
        QVERIFY(tab.isOverrideActive());
        QVERIFY(doc.plan().valid);
        QVERIFY2(doc.plan().mfu > mfuBefore + 1e-4,
                 qPrintable(QStringLiteral("%1 -> %2").arg(mfuBefore).arg(doc.plan().mfu)));
        QCOMPARE(QString::fromStdString(doc.plan().profileName), QStringLiteral("measured on a test server"));
        QVERIFY(tab.activeProfileText().contains(QStringLiteral("measured on a test server")));
        QVERIFY(tab.activeProfileText().contains(QStringLiteral("faster.json")));
        QVERIFY(tab.profileLabel()->text().contains(QStringLiteral("in use:</b> measured on a test server")));
        // Before/after MFU, both shown.
        const QString compare = tab.comparisonText();
        QVERIFY2(compare.contains(QStringLiteral("MFU")), qPrintable(compare));
        QVERIFY(compare.contains(QStringLiteral("→")));
        QVERIFY(!tab.applyButton()->isEnabled()); // already applied
        QVERIFY(tab.builtinButton()->isEnabled());

        // Back to the built-in profile.
        tab.builtinButton()->click();
        QVERIFY(!tab.isOverrideActive());
        QCOMPARE(doc.plan().mfu, mfuBefore);
        QVERIFY(tab.applyButton()->isEnabled()); // the imported profile can be applied again
        QVERIFY(tab.applyCandidate());
        QCOMPARE(doc.profile(), measured);
        tab.show();
        keepScreenshot(tab, QStringLiteral("calibrate-imported.png"));
    }

    void loadPreviewsSaveWrites() {
        ui::ScenarioDocument doc;
        ui::CalibrateTab tab(doc, fakeBackend(0));
        const core::HardwareProfile measured = fasterProfile(doc.scenario());
        const QString path = writeProfile(measured, QStringLiteral("loaded.json"));
        const double mfu = doc.plan().mfu;
        QVERIFY(tab.loadProfile(path));
        QCOMPARE(doc.plan().mfu, mfu); // loading does not apply
        QVERIFY(!tab.isOverrideActive());
        QVERIFY(tab.candidateProfile().has_value());
        QVERIFY(tab.comparisonText().contains(QStringLiteral("would change")));
        QVERIFY(tab.applyButton()->isEnabled());
        // The GEMM chart shows the loaded profile's curve beside the active one.
        QStringList names;
        for (auto* s : tab.gemmChartView()->chart()->series())
            names << s->name();
        QVERIFY2(names.contains(QStringLiteral("measured profile")),
                 qPrintable(names.join(QLatin1Char(','))));
        tab.applyButton()->click();
        QCOMPARE(doc.profile(), measured);

        const QString out = m_dir.filePath(QStringLiteral("saved.json"));
        tab.setSaveFileChooser([&](QWidget*, const QString&, const QString&, const QString&) { return out; });
        tab.saveButton()->click();
        auto back = core::loadProfileFile(out.toStdString());
        QVERIFY(back.has_value());
        QCOMPARE(*back, measured);
    }

    void badProfilesChangeNothing() {
        ui::ScenarioDocument doc;
        ui::CalibrateTab tab(doc, fakeBackend(0));
        const core::HardwareProfile before = doc.profile();
        const QString bad = m_dir.filePath(QStringLiteral("bad-profile.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{ \"schema\": \"layout-planner/hardware-profile\", ");
        f.close();
        QVERIFY(!tab.importProfile(bad));
        QVERIFY(!tab.errorText().isEmpty());
        QCOMPARE(doc.profile(), before);
        QVERIFY(!tab.importProfile(m_dir.filePath(QStringLiteral("does-not-exist.json"))));
        QCOMPARE(doc.profile(), before);
        QVERIFY(!tab.applyCandidate());
    }

    void runsInAWorkerThreadWithLiveResults() {
        ui::ScenarioDocument doc;
        auto calls = std::make_shared<std::atomic<int>>(0);
        ui::CalibrateTab tab(doc, fakeBackend(2, 0, calls));
        tab.resize(1600, 1000);
        QAbstractItemModelTester gpuTester(tab.gpuList()->model(),
                                           QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester tableTester(tab.measurementsTable()->model(),
                                             QAbstractItemModelTester::FailureReportingMode::QtTest);
        tab.detectGpus();
        QTRY_VERIFY(tab.detectionDone());
        QCOMPARE(tab.gpuList()->topLevelItemCount(), 2);
        QCOMPARE(tab.gpuList()->topLevelItem(0)->text(1), QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(tab.gpuList()->topLevelItem(0)->text(2), QStringLiteral("132"));
        QCOMPARE(tab.gpuList()->topLevelItem(0)->text(4), QStringLiteral("9.0"));
        QVERIFY(!tab.explanationPanel()->isVisibleTo(&tab));
        QVERIFY(tab.runButton()->isEnabled());
        QVERIFY(tab.ncclBox()->isEnabled()); // two GPUs
        QVERIFY(tab.fp8Box()->isEnabled());  // compute capability 9.0

        // The request follows the choices.
        tab.quickBox()->setChecked(true);
        calib::CalibrationRequest r = tab.currentRequest();
        QVERIFY(r.nccl && !r.commBytes.empty() && !r.hbmBytes.empty() && r.fp8);
        const auto shapes = calib::scenarioGemms(doc.scenario());
        QVERIFY(r.gemms.size() > shapes.size());
        tab.sweepBox()->setChecked(false);
        tab.hbmBox()->setChecked(false);
        tab.ncclBox()->setChecked(false);
        r = tab.currentRequest();
        QCOMPARE(r.gemms.size(), shapes.size());
        QVERIFY(r.hbmBytes.empty() && !r.nccl && r.commBytes.empty());
        tab.scenarioGemmsBox()->setChecked(false);
        QVERIFY(!tab.runButton()->isEnabled()); // nothing chosen
        for (QCheckBox* c : {tab.scenarioGemmsBox(), tab.sweepBox(), tab.hbmBox(), tab.ncclBox()})
            c->setChecked(true);

        const double mfuBefore = doc.plan().mfu;
        QSignalSpy progress(&tab, &ui::CalibrateTab::calibrationProgress);
        QSignalSpy finished(&tab, &ui::CalibrateTab::calibrationFinished);
        tab.runButton()->click();
        QVERIFY(tab.isRunning());
        QVERIFY(!tab.runButton()->isEnabled());
        QVERIFY(tab.cancelButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QVERIFY(finished.front().front().toBool());
        QVERIFY(progress.count() > 10);
        QCOMPARE(calls->load(), 1);
        QVERIFY(!tab.isRunning());
        QVERIFY(tab.runButton()->isEnabled());
        QCOMPARE(tab.progressBar()->value(), tab.progressBar()->maximum());
        QVERIFY(tab.result().has_value() && tab.result()->ok);

        // Table and charts show every measurement.
        const auto& res = *tab.result();
        QCOMPARE(res.sustained.size(), std::size_t{2}); // bf16 and fp8, each held after its sweep
        QCOMPARE(
            tab.measurementsTable()->rowCount(),
            static_cast<int>(res.gemms.size() + res.sustained.size() + res.hbm.size() + res.comm.size()));
        QVERIFY(!tab.measurementsTable()
                     ->findItems(QStringLiteral("GEMM bf16 held"), Qt::MatchExactly)
                     .isEmpty());
        int gemmPoints = 0;
        for (auto* s : tab.gemmChartView()->chart()->series())
            if (qobject_cast<QScatterSeries*>(s))
                gemmPoints += static_cast<QScatterSeries*>(s)->count();
        QCOMPARE(gemmPoints,
                 static_cast<int>(res.gemms.size() + res.sustained.size())); // held ones marked too
        QStringList gemmNames;
        for (auto* s : tab.gemmChartView()->chart()->series())
            gemmNames << s->name();
        QVERIFY2(gemmNames.contains(QStringLiteral("bf16 peak (989 TFLOP/s)")),
                 qPrintable(gemmNames.join(QLatin1Char(','))));
        QCOMPARE(points(tab.busChartView()), static_cast<int>(res.comm.size()));
        QCOMPARE(points(tab.hbmChartView()), static_cast<int>(res.hbm.size()));
        QVERIFY(tab.busChartView()->chart()->title().contains(QStringLiteral("2 GPUs")));

        // The measured profile, then applied with its before/after MFU.
        QVERIFY(tab.candidateProfile().has_value());
        QCOMPARE(QString::fromStdString(tab.candidateProfile()->origin), QStringLiteral("measured"));
        QCOMPARE(QString::fromStdString(tab.candidateProfile()->gpuId), QStringLiteral("h100-sxm-80gb"));
        QVERIFY(!tab.candidateProfile()->nvlinkBusEfficiency.empty());
        QVERIFY(tab.summaryText().contains(QStringLiteral("bf16 GEMM: up to")));
        QVERIFY2(tab.summaryText().contains(QStringLiteral("bf16 GEMM held back to back")),
                 qPrintable(tab.summaryText()));
        // The profile's GEMM curve is the held throughput (85% of the short samples' best).
        double bestShort = 0;
        for (const auto& g : res.gemms)
            if (g.dtype == calib::GemmDtype::Bf16)
                bestShort = std::max(bestShort, g.flopsPerSecond / 989e12);
        QVERIFY(std::fabs(tab.candidateProfile()->gemmEfficiency.points.back().second - 0.85 * bestShort) <
                0.02);
        QVERIFY(tab.comparisonText().contains(QStringLiteral("would change")));
        keepScreenshot(tab, QStringLiteral("calibrate-measured.png"));
        QVERIFY(tab.applyButton()->isEnabled());
        tab.applyButton()->click();
        QCOMPARE(doc.profile(), *tab.candidateProfile());
        QVERIFY(std::fabs(doc.plan().mfu - mfuBefore) > 1e-4);
        QVERIFY(tab.comparisonText().contains(QStringLiteral("MFU")));
        // Built-in against the measured profile, in the core's words (the Throughput card's 841.3 per GPU).
        const core::Plan builtIn =
            core::evaluate(doc.scenario(), core::builtinProfile(doc.scenario().cluster.gpu));
        const core::PlanChangeText change = core::planChangeText(builtIn, doc.plan());
        QVERIFY2(tab.comparisonText().contains(QString::fromStdString(change.rates)),
                 qPrintable(tab.comparisonText()));
        QVERIFY(tab.comparisonText().contains(QString::fromStdString(change.mfuAfter)));
        QVERIFY(
            tab.comparisonText().contains(QString::fromStdString(change.points) + QStringLiteral(" points")));
        tab.resultTabs()->setCurrentIndex(1);
        keepScreenshot(tab, QStringLiteral("calibrate-measurements.png"));
    }

    void cancelStopsAfterTheCurrentItem() {
        ui::ScenarioDocument doc;
        ui::CalibrateTab tab(doc, fakeBackend(2, 15));
        tab.detectGpus();
        QTRY_VERIFY(tab.detectionDone());
        QSignalSpy progress(&tab, &ui::CalibrateTab::calibrationProgress);
        QSignalSpy finished(&tab, &ui::CalibrateTab::calibrationFinished);
        QVERIFY(tab.startCalibration());
        QVERIFY(!tab.startCalibration()); // one at a time
        QTRY_VERIFY(progress.count() >= 3);
        QVERIFY(tab.isRunning());
        tab.cancelButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
        QVERIFY(!finished.front().front().toBool());
        QVERIFY(tab.result().has_value());
        QVERIFY(tab.result()->cancelled);
        QVERIFY(!tab.candidateProfile().has_value());
        QVERIFY(tab.progressBar()->value() < tab.progressBar()->maximum());
        QVERIFY(tab.progressLabel()->text().contains(QStringLiteral("Cancelled")));
        QVERIFY(!tab.isRunning());
        QVERIFY(tab.runButton()->isEnabled());
    }

    void closingWhileRunningWaitsForTheWorker() {
        ui::ScenarioDocument doc;
        auto* tab = new ui::CalibrateTab(doc, fakeBackend(2, 10));
        tab->detectGpus();
        QTRY_VERIFY(tab->detectionDone());
        QVERIFY(tab->startCalibration());
        QTest::qWait(30);
        delete tab; // cancels, waits for the current item, drops the queued results
        QTest::qWait(30);
    }

    void failedRunSaysWhy() {
        ui::ScenarioDocument doc;
        ui::CalibrationBackend b = fakeBackend(1);
        b.run = [](const calib::CalibrationRequest&, const calib::ProgressCallback&) {
            calib::CalibrationResult r;
            r.error = "cudaMalloc: out of memory";
            return r;
        };
        ui::CalibrateTab tab(doc, b);
        tab.detectGpus();
        QTRY_VERIFY(tab.detectionDone());
        QVERIFY(!tab.ncclBox()->isEnabled()); // one GPU
        QVERIFY(tab.ncclBox()->text().contains(QStringLiteral("2 or more")));
        QSignalSpy finished(&tab, &ui::CalibrateTab::calibrationFinished);
        QVERIFY(tab.startCalibration());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(!finished.front().front().toBool());
        QVERIFY(tab.errorText().contains(QStringLiteral("out of memory")));
        QVERIFY(!tab.candidateProfile().has_value());
    }

    // WindowTabs::install: both tabs in the window, once each, and the Tools menu.
    // A laptop's 1280x720 window, and a projector's in presentation mode: the page is the one thing that
    // scrolls, and scrolling it reaches the GPUs, the benchmarks (their Run button), the measured profile and
    // every chart whole; no wrapped text of the settings is cut, and the NCCL chart shows its axis titles.
    void oneScrollLevelReachesEverythingAtLaptopSize() {
        auto w = test::makeFullQuietWindow();
        ui::CalibrateTab* tab = w->findChild<ui::CalibrateTab*>();
        QVERIFY(tab);
        w->tabs()->setCurrentWidget(tab);
        w->resize(1280, 720);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w.get()));
        QTRY_VERIFY_WITH_TIMEOUT(tab->detectionDone(), 30000);
        QTest::qWait(100);
        verifyEverythingReachable(*tab, QStringLiteral("calibrate-1280x720-page.png"));
        if (QTest::currentTestFailed())
            return;
        ui::PresentationMode* presentation = ui::TeachingMode::of(*w)->presentation();
        presentation->setActive(true);
        w->setWindowState(Qt::WindowNoState); // a projector's 1280x720, not the test screen
        w->resize(1280, 720);
        QTest::qWait(150);
        verifyEverythingReachable(*tab, QStringLiteral("calibrate-1280x720-presentation-page.png"));
        presentation->setActive(false);
    }

    void wiringIntoTheMainWindow() {
        ui::WindowOptions options;
        options.persistentSettings = false;
        options.autosave = false;
        ui::MainWindow w(options);
        QVERIFY(!ui::WindowTabs::of(w));
        const ui::WindowTabs& installed = ui::WindowTabs::install(w);
        struct {
            ui::CalibrateTab* calibrate;
            ui::ValidationTab* validation;
        } tabs{installed.calibrate(), installed.validation()};
        QVERIFY(tabs.calibrate && tabs.validation);
        int calibrate = -1, validate = -1;
        for (int i = 0; i < w.tabs()->count(); ++i) {
            QString t = w.tabs()->tabText(i);
            t.remove(QLatin1Char('&'));
            if (t == QLatin1String("Calibrate")) {
                QVERIFY(calibrate < 0);
                calibrate = i;
            }
            if (t == QLatin1String("Validate")) {
                QVERIFY(validate < 0);
                validate = i;
            }
        }
        QVERIFY(calibrate >= 0 && validate >= 0);
        QCOMPARE(w.tabs()->widget(calibrate), tabs.calibrate);
        QCOMPARE(w.tabs()->widget(validate), tabs.validation);
        QCOMPARE(w.tabs()->count(), ui::kWindowTabCount);
        QAction* showCalibrate =
            w.menus()->toolsMenu()->findChild<QAction*>(QStringLiteral("actionCalibrate"));
        QAction* showValidate = w.menus()->toolsMenu()->findChild<QAction*>(QStringLiteral("actionValidate"));
        QVERIFY(showCalibrate && showValidate);
        showValidate->trigger();
        QCOMPARE(w.tabs()->currentWidget(), tabs.validation);
        showCalibrate->trigger();
        QCOMPARE(w.tabs()->currentWidget(), tabs.calibrate);

        // As a person sees them in the window.
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTRY_VERIFY_WITH_TIMEOUT(tabs.calibrate->detectionDone(), 30000);
        keepScreenshot(w, QStringLiteral("window-calibrate.png"));
        showValidate->trigger();
        QTest::qWait(100);
        if (tabs.validation->caseCount() > 0) {
            tabs.validation->table()->selectRow(2);
            QTest::qWait(50);
            keepScreenshot(w, QStringLiteral("window-validate.png"));
            // Opening a case (no unsaved changes: no question) shows its Plan.
            QVERIFY(tabs.validation->openSelected());
            QCOMPARE(w.tabs()->currentWidget(), static_cast<QWidget*>(w.planView()));
        }
    }
};

QTEST_MAIN(TestCalibrateTab)
#include "test_calibrate_tab.moc"
