// The values each layout control offers and how one change propagates (keep GPU count on and off).
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "core/model/Scenario.h"
#include "core/search/LayoutSteps.h"
#include "ui/widgets/Format.h"

#include <QTest>

using namespace lp;
using core::LayoutAxis;

class TestLayoutSteps : public QObject {
    Q_OBJECT
private slots:
    void tpStepsDivideHeadsAndKeepGpus() {
        const core::Scenario s = core::defaultScenario(); // 64 heads, 8 KV heads, 64 GPUs, PP 4
        core::LayoutRules rules;
        const std::vector<int> tp = core::validSteps(s, LayoutAxis::Tp, rules);
        QCOMPARE(tp, (std::vector<int>{1, 2, 4, 8}));
        for (int v : tp) {
            const core::Scenario n = core::withLayoutValue(s, LayoutAxis::Tp, v, rules);
            QCOMPARE(n.layout.gpus(), s.cluster.gpus());
            QVERIFY(n.cluster == s.cluster);
        }
    }

    void ppStepsDivideLayers() {
        const core::Scenario s = core::defaultScenario(); // 80 layers; TP 8 on 64 GPUs leaves PP x DP = 8
        core::LayoutRules rules;
        QCOMPARE(core::validSteps(s, LayoutAxis::Pp, rules), (std::vector<int>{1, 2, 4, 8}));
        rules.keepGpuCount = false; // the cluster follows: every divisor of 80 in whole nodes
        const std::vector<int> pp = core::validSteps(s, LayoutAxis::Pp, rules);
        QCOMPARE(pp, (std::vector<int>{1, 2, 4, 5, 8, 10, 16, 20, 40, 80}));
    }

    void tpFromEightToFourRebalancesDp() {
        const core::Scenario s = core::defaultScenario();
        core::LayoutRules rules;
        const core::Scenario n = core::withLayoutValue(s, LayoutAxis::Tp, 4, rules);
        QCOMPARE(n.layout.tp, 4);
        QCOMPARE(n.layout.dp, 4);
        QCOMPARE(n.cluster.gpus(), 64LL);
    }

    void withoutKeepTheClusterFollows() {
        const core::Scenario s = core::defaultScenario();
        core::LayoutRules rules;
        rules.keepGpuCount = false;
        const core::Scenario n = core::withLayoutValue(s, LayoutAxis::Tp, 4, rules);
        QCOMPARE(n.layout.dp, 2);
        QCOMPARE(n.cluster.gpus(), 32LL);
        QCOMPARE(n.cluster.nodes, 4);
        QCOMPARE(n.cluster.gpusPerNode, 8);
        QCOMPARE(QString::fromStdString(n.cluster.name), QStringLiteral("4 x DGX H100"));
        // Down to a partial node and back to whole nodes.
        core::Scenario small = core::withLayoutValue(s, LayoutAxis::Pp, 1, rules);
        small = core::withLayoutValue(small, LayoutAxis::Dp, 1, rules);
        QCOMPARE(small.cluster.gpus(), 8LL);
        small = core::withLayoutValue(small, LayoutAxis::Tp, 2, rules);
        QCOMPARE(small.cluster.nodes, 1);
        QCOMPARE(small.cluster.gpusPerNode, 2);
        const core::Scenario back = core::withLayoutValue(small, LayoutAxis::Pp, 8, rules);
        QCOMPARE(back.cluster.nodes, 2);
        QCOMPARE(back.cluster.gpusPerNode, 8);
        QVERIFY(core::checkLayout(back).empty());
    }

    void dpIsDerivedWhileKeepingGpus() {
        const core::Scenario s = core::defaultScenario();
        core::LayoutRules rules;
        QCOMPARE(core::validSteps(s, LayoutAxis::Dp, rules), (std::vector<int>{2}));
        rules.keepGpuCount = false;
        const std::vector<int> dp = core::validSteps(s, LayoutAxis::Dp, rules);
        QVERIFY(dp.size() > 100);
        QCOMPARE(dp.front(), 1);
        for (int v : dp)
            QCOMPARE((32LL * v) % 8, 0LL);
    }

    void everyOfferedStepIsValid() {
        const core::Scenario s = core::defaultScenario();
        for (bool keep : {true, false}) {
            core::LayoutRules rules;
            rules.keepGpuCount = keep;
            for (LayoutAxis axis : {LayoutAxis::Tp, LayoutAxis::Pp, LayoutAxis::Cp, LayoutAxis::Vpp,
                                    LayoutAxis::MicroBatch, LayoutAxis::Accumulation}) {
                for (int v : core::validSteps(s, axis, rules)) {
                    const core::Scenario n = core::withLayoutValue(s, axis, v, rules);
                    QVERIFY2(core::checkLayout(n).empty(),
                             qPrintable(lp::ui::qs(core::axisName(axis)) + QStringLiteral(" = ") +
                                        QString::number(v)));
                }
            }
        }
    }

    void invalidCurrentValueIsStillShown() {
        core::Scenario s = core::defaultScenario();
        s.layout.tp = 3; // does not divide 64 heads
        const std::vector<int> tp = core::validSteps(s, LayoutAxis::Tp, {});
        QVERIFY(std::find(tp.begin(), tp.end(), 3) != tp.end());
        QVERIFY(std::is_sorted(tp.begin(), tp.end()));
    }

    void virtualStagesNeedAPipeline() {
        core::Scenario s = core::defaultScenario();
        QCOMPARE(core::validSteps(s, LayoutAxis::Vpp, {}), (std::vector<int>{1, 2, 4, 5, 10, 20}));
        s.layout.pp = 1;
        s.layout.dp = 8;
        QCOMPARE(core::validSteps(s, LayoutAxis::Vpp, {}), (std::vector<int>{1}));
    }
};

QTEST_GUILESS_MAIN(TestLayoutSteps)
#include "test_layout_steps.moc"
