// DiagnosticsModel under QAbstractItemModelTester, across the plans a slider drag produces.
#include "core/estimate/Evaluate.h"
#include "core/io/Presets.h"
#include "ui/plan/DiagnosticsModel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace lp;

class TestDiagnosticsModel : public QObject {
    Q_OBJECT
private slots:
    void passesTheModelTester() {
        ui::DiagnosticsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        core::Scenario s = core::defaultScenario();
        model.setDiagnostics(core::evaluate(s).diagnostics);
        QVERIFY(model.rowCount() > 0);
        // Through fitting, not fitting and invalid layouts, and back.
        for (int tp : {8, 4, 2, 1, 3, 8}) {
            s.layout.tp = tp;
            s.layout.dp = 64 / (tp * s.layout.pp) > 0 ? 64 / (tp * s.layout.pp) : 1;
            model.setDiagnostics(core::evaluate(s).diagnostics);
        }
        s.layout = {1, 1, 64, 1, 1, 1, 1, 1};
        s.training.zeroStage = 0;
        model.setDiagnostics(core::evaluate(s).diagnostics);
        model.setDiagnostics({});
        QCOMPARE(model.rowCount(), 0);
    }

    void rowsCarryTheCoreTexts() {
        ui::DiagnosticsModel model;
        core::Scenario s = core::defaultScenario();
        s.layout.tp = 1;
        s.layout.pp = 1;
        s.layout.dp = 64;
        s.training.zeroStage = 0;
        const core::Plan plan = core::evaluate(s);
        QVERIFY(plan.has(core::DiagnosticId::DoesNotFit));
        model.setDiagnostics(plan.diagnostics);
        QVERIFY(model.ids().contains(QStringLiteral("does_not_fit")));
        // does_not_fit is shown with the errors, first.
        QCOMPARE(model.index(0).data(ui::DiagnosticsModel::IdRole).toString(),
                 QStringLiteral("does_not_fit"));
        QCOMPARE(model.index(0).data(ui::DiagnosticsModel::SeverityRole).toInt(),
                 static_cast<int>(core::Severity::Error));
        for (int r = 0; r < model.rowCount(); ++r) {
            const QModelIndex i = model.index(r);
            QVERIFY(!i.data(Qt::DisplayRole).toString().isEmpty());
            QVERIFY(!i.data(ui::DiagnosticsModel::SuggestionRole).toString().isEmpty());
            QVERIFY(!i.data(Qt::DecorationRole).value<QIcon>().isNull());
            QVERIFY(i.data(Qt::ToolTipRole)
                        .toString()
                        .contains(i.data(ui::DiagnosticsModel::SuggestionRole).toString()));
        }
    }

    void severitiesAreOrdered() {
        ui::DiagnosticsModel model;
        core::Scenario s = core::defaultScenario();
        s.layout.tp = 3;
        s.training.loaderPrefetch = false;
        model.setDiagnostics(core::evaluate(s).diagnostics);
        int last = 99;
        for (int r = 0; r < model.rowCount(); ++r) {
            const int sev = model.index(r).data(ui::DiagnosticsModel::SeverityRole).toInt();
            QVERIFY(sev <= last);
            last = sev;
        }
    }
};

QTEST_MAIN(TestDiagnosticsModel)
#include "test_diagnostics_model.moc"
