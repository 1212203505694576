#include "ui/shell/PresentationPanelFit.h"

#include "ui/document/ScenarioDocument.h"
#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/MainWindow.h"
#include "ui/teach/PresentationMode.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>

namespace lp::ui {
namespace {

// The width a combo box needs to show `text` whole, frame and arrow included.
int comboWidthFor(const QComboBox& box, const QString& text) {
    QStyleOptionComboBox opt;
    opt.initFrom(&box);
    opt.editable = box.isEditable();
    const QSize content(box.fontMetrics().horizontalAdvance(text) + 8, box.fontMetrics().height());
    return box.style()->sizeFromContents(QStyle::CT_ComboBox, &opt, content, &box).width();
}

} // namespace

PresentationPanelFit::PresentationPanelFit(MainWindow& window, PresentationMode& presentation, QObject* parent)
    : QObject(parent), m_window(window), m_presentation(presentation) {
    connect(&m_presentation, &PresentationMode::activeChanged, this, &PresentationPanelFit::setPresenting);
    connect(m_window.document(), &ScenarioDocument::scenarioChanged, this, [this] {
        if (m_presentation.isActive())
            fitSoon(); // another model or GPU: another text to show whole
    });
}

void PresentationPanelFit::setPresenting(bool presenting) {
    ScenarioPanel* panel = m_window.scenarioPanel();
    if (presenting) {
        m_savedWrap.clear();
        for (QFormLayout* form : panel->findChildren<QFormLayout*>()) {
            m_savedWrap.emplace_back(form, form->rowWrapPolicy());
            form->setRowWrapPolicy(QFormLayout::WrapAllRows); // each field the panel's whole width
        }
        m_savedDockWidth = m_window.scenarioDock()->width();
        fitSoon();
        return;
    }
    for (const auto& [form, policy] : m_savedWrap)
        if (form)
            form->setRowWrapPolicy(static_cast<QFormLayout::RowWrapPolicy>(policy));
    m_savedWrap.clear();
    if (m_savedDockWidth > 0)
        m_window.resizeDocks({m_window.scenarioDock()}, {m_savedDockWidth}, Qt::Horizontal);
    m_savedDockWidth = -1;
}

void PresentationPanelFit::fitSoon() {
    if (m_pending)
        return;
    m_pending = true;
    QTimer::singleShot(0, this, [this] { // once the larger fonts have laid the panel out
        m_pending = false;
        fit();
    });
}

int PresentationPanelFit::neededPanelWidth() const {
    ScenarioPanel* panel = m_window.scenarioPanel();
    int needed = 0;
    for (QComboBox* box : panel->findChildren<QComboBox*>()) {
        if (!box->isVisibleTo(panel) || box->currentText().isEmpty())
            continue;
        // What the panel keeps beside the box (margins, scroll bar) stays; the box grows to its text.
        const int beside = m_window.scenarioDock()->width() - box->width();
        needed = std::max(needed, comboWidthFor(*box, box->currentText()) + beside);
    }
    return needed;
}

void PresentationPanelFit::fit() {
    if (!m_presentation.isActive())
        return;
    QDockWidget* dock = m_window.scenarioDock();
    if (dock->isHidden() || dock->isFloating())
        return;
    // At most 40% of the window, and only what no tab page needs: the pages never scroll sideways for it.
    int spare = m_window.width();
    for (QScrollArea* page : m_window.tabs()->findChildren<QScrollArea*>(QStringLiteral("pageScroll"))) {
        const int pageNeeds =
            page->widget()->minimumSizeHint().width() + page->verticalScrollBar()->sizeHint().width();
        spare = std::min(spare, m_window.tabs()->currentWidget()->width() - pageNeeds);
    }
    const int wanted =
        std::min({neededPanelWidth(), m_window.width() * 2 / 5, dock->width() + std::max(0, spare)});
    if (wanted > dock->width())
        m_window.resizeDocks({dock}, {wanted}, Qt::Horizontal);
}

} // namespace lp::ui
