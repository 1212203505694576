#pragma once
// Binds form controls to fields of the document's scenario: each control reads its field on every
// scenarioChanged and sends an undoable edit when the user changes it. Keeps the editors declarative.
#include "core/model/Scenario.h"

#include <QObject>
#include <QString>

#include <functional>
#include <string>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLineEdit;
class QSpinBox;
class QToolButton;

namespace lp::ui {

class ScenarioDocument;

class FormBinder : public QObject {
    Q_OBJECT
public:
    // How an edited scenario reaches the document (default: ScenarioDocument::edit).
    using Apply = std::function<void(const core::Scenario& next, const QString& description, int mergeId)>;

    FormBinder(ScenarioDocument* doc, int mergeBase, QObject* parent);
    void setApply(Apply apply) { m_apply = std::move(apply); }

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
    void send(const std::function<void(core::Scenario&)>& change, const QString& label, int field);
    ScenarioDocument* m_doc;
    int m_mergeBase;
    int m_fields = 0;
    Apply m_apply;
    std::vector<std::function<void()>> m_refreshers;
};

} // namespace lp::ui
