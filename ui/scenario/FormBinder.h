#pragma once
// Binds form controls to fields of the document's scenario: each control reads its field on every
// scenarioChanged and sends an undoable edit when the user changes it. The editors describe their forms
// as tables of FormField rows.
#include "core/model/Scenario.h"

#include <QObject>
#include <QString>

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;
class QToolButton;
class QWidget;

namespace lp::ui {

class ScenarioDocument;

// A number, switch or choice of the scenario, reached through a path of members from the Scenario
// (scenarioValue<&Scenario::training, &TrainingOptions::zeroStage>()), read and written as a double.
struct ScenarioValue {
    double (*get)(const core::Scenario&) = nullptr;
    void (*set)(core::Scenario&, double) = nullptr;
};

// (s.*....*Path) folds the path: s.*P1.*P2..., the member at its end.
template <auto... Path> ScenarioValue scenarioValue() {
    return {[](const core::Scenario& s) {
                const auto& field = (s.*....*Path);
                return static_cast<double>(field);
            },
            [](core::Scenario& s, double v) {
                auto& field = (s.*....*Path);
                using Field = std::remove_cvref_t<decltype(field)>;
                if constexpr (std::is_floating_point_v<Field>)
                    field = v;
                else if constexpr (std::is_same_v<Field, bool>)
                    field = v != 0;
                else
                    field = static_cast<Field>(static_cast<long long>(v));
            }};
}

// One row of a form. Texts are untranslated source strings (tr() is applied when the row is built).
struct FormField {
    enum class Kind { Int, Double, Bool, Choice, Heading };
    struct Choice {
        const char* text;
        int value;
    };
    // What a number may be (in the shown unit).
    struct Range {
        double min = 0;
        double max = 0;
        int decimals = 0; // Double
    };
    // How a number is shown.
    struct Shown {
        double scale = 1;         // Double: shown value = stored value / scale (bytes/s shown in GB/s: 1e9)
        const char* suffix = "";  // " GB/s"
        const char* special = ""; // Int: what the minimum shows as ("none", "every layer")
    };
    Kind kind = Kind::Int;
    const char* name = "";  // the control's object name ("" for none)
    const char* label = ""; // '&' marks the shortcut; a Heading's text (rich text)
    const char* tip = "";
    ScenarioValue value{};
    Range range{};
    Shown shown{};
    std::vector<Choice> choices{}; // Choice
};

// The form of an editor on `page`: fields that grow with the panel, indented by `indent` pixels under a
// folding section's title.
QFormLayout* makeForm(QWidget* page, int indent = 0);

class FormBinder : public QObject {
    Q_OBJECT
public:
    // How an edited scenario reaches the document (default: ScenarioDocument::edit).
    using Apply = std::function<void(const core::Scenario& next, const QString& description, int mergeId)>;

    FormBinder(ScenarioDocument* doc, int mergeBase, QObject* parent);
    void setApply(Apply apply) { m_apply = std::move(apply); }

    // The rows of `fields`, in order; returns each row's control (a Heading's label).
    std::vector<QWidget*> addFields(QFormLayout* form, const std::vector<FormField>& fields);

    QSpinBox* addInt(QFormLayout* form, const QString& label, const QString& tip, int min, int max,
                     std::function<int(const core::Scenario&)> get,
                     std::function<void(core::Scenario&, int)> set, const QString& suffix = {});
    // Shown value = stored value / scale (e.g. bytes/s shown in GB/s with scale 1e9).
    QDoubleSpinBox* addDouble(QFormLayout* form, const QString& label, const QString& tip, double min,
                              double max, int decimals, double scale,
                              std::function<double(const core::Scenario&)> get,
                              std::function<void(core::Scenario&, double)> set, const QString& suffix = {});
    QCheckBox* addBool(QFormLayout* form, const QString& text, const QString& tip,
                       std::function<bool(const core::Scenario&)> get,
                       std::function<void(core::Scenario&, bool)> set);
    QComboBox* addChoice(QFormLayout* form, const QString& label, const QString& tip,
                         const std::vector<std::pair<QString, int>>& items,
                         std::function<int(const core::Scenario&)> get,
                         std::function<void(core::Scenario&, int)> set);
    QLineEdit* addText(QFormLayout* form, const QString& label, const QString& tip,
                       std::function<std::string(const core::Scenario&)> get,
                       std::function<void(core::Scenario&, const std::string&)> set);

    // A set of flags (bits of one unsigned field): a button that shows the chosen ones (`none` when empty)
    // and opens a menu of checkable items.
    QToolButton* addFlags(QFormLayout* form, const QString& label, const QString& tip,
                          const std::vector<std::pair<QString, unsigned>>& items, const QString& none,
                          std::function<unsigned(const core::Scenario&)> get,
                          std::function<void(core::Scenario&, unsigned)> set);

    void refresh();

private:
    QWidget* addField(QFormLayout* form, const FormField& field);
    void send(const std::function<void(core::Scenario&)>& change, const QString& label, int field);
    // Keeps `refresher` to show the scenario's value on every change, and shows it now.
    void follow(std::function<void()> refresher);
    ScenarioDocument* m_doc;
    int m_mergeBase;
    int m_fields = 0;
    Apply m_apply;
    std::vector<std::function<void()>> m_refreshers;
};

} // namespace lp::ui
