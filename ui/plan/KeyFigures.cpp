#include "ui/plan/KeyFigures.h"

#include "core/estimate/KeyFigures.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/FigureLabel.h"

#include <QGridLayout>

namespace lp::ui {

KeyFigures::KeyFigures(QWidget* parent) : QWidget(parent) {
    // One card per figure the core words, in its order; refresh() fills them.
    for (const core::KeyFigure& figure : core::keyFigures(m_scenario, m_plan, m_unit)) {
        auto* f = new FigureLabel(qs(figure.caption), qs(figure.id), qs(figure.explainKey),
                                  qs(figure.meaning), this);
        relayExplanations(f, this);
        m_figures.push_back(f);
    }
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(6);
    arrange(3);
    refresh();
}

void KeyFigures::arrange(int columns) {
    if (columns == m_columns)
        return;
    m_columns = columns;
    auto* grid = static_cast<QGridLayout*>(layout());
    for (FigureLabel* f : m_figures)
        grid->removeWidget(f);
    for (std::size_t i = 0; i < m_figures.size(); ++i)
        grid->addWidget(m_figures[i], static_cast<int>(i) / columns, static_cast<int>(i) % columns);
    for (int c = 0; c < 3; ++c)
        grid->setColumnStretch(c, c < columns ? 1 : 0);
    updateGeometry(); // the height changes with the rows
}

void KeyFigures::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (m_figures.empty())
        return;
    arrange(columnsFor(width()));
}

int KeyFigures::columnsFor(int width) const {
    if (m_figures.empty())
        return 1;
    const int tile = m_figures.front()->comfortableWidth();
    const int spacing = layout()->spacing();
    for (int columns = 3; columns > 1; --columns)
        if (width >= columns * tile + (columns - 1) * spacing)
            return columns;
    return 1;
}

int KeyFigures::preferredWidth(int columns) const {
    if (m_figures.empty())
        return 0;
    return columns * m_figures.front()->comfortableWidth() + (columns - 1) * layout()->spacing();
}

QSize KeyFigures::minimumSizeHint() const {
    // One column of whole values; resizeEvent takes more where the width allows.
    return {preferredWidth(1), layout()->minimumSize().height()};
}

FigureLabel* KeyFigures::figure(const QString& id) const {
    for (FigureLabel* f : m_figures)
        if (f->id() == id)
            return f;
    return nullptr;
}

void KeyFigures::setActiveKey(const QString& key) {
    for (FigureLabel* f : m_figures)
        f->setActive(f->explainKey() == key);
}

void KeyFigures::setPlan(const core::Scenario& s, const core::Plan& plan) {
    m_previousPlan = m_plan;
    m_hasPrevious = m_hasPlan;
    m_hasPlan = true;
    m_scenario = s;
    m_plan = plan;
    refresh();
}

void KeyFigures::forgetPrevious() {
    m_hasPrevious = false;
    refresh();
}

void KeyFigures::setUnit(MemoryUnit unit) {
    m_unit = unit;
    refresh();
}

void KeyFigures::setTrustBand(const std::optional<core::TrustBand>& band) {
    m_trust = band;
    refresh();
}

void KeyFigures::refresh() {
    std::vector<core::KeyFigure> figures =
        core::keyFigures(m_scenario, m_plan, m_unit, m_hasPrevious ? &m_previousPlan : nullptr);
    if (m_trust && m_plan.valid)
        core::addTrustBand(figures, *m_trust);
    for (std::size_t i = 0; i < figures.size() && i < m_figures.size(); ++i)
        m_figures[i]->setFigure(figures[i]);
}

} // namespace lp::ui
