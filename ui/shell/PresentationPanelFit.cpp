#include "ui/shell/PresentationPanelFit.h"

#include "ui/scenario/ScenarioPanel.h"
#include "ui/shell/MainWindow.h"
#include "ui/teach/PresentationMode.h"

#include <QFormLayout>

namespace lp::ui {

PresentationPanelFit::PresentationPanelFit(MainWindow& window, PresentationMode& presentation,
                                           QObject* parent)
    : QObject(parent), m_window(window) {
    connect(&presentation, &PresentationMode::activeChanged, this, &PresentationPanelFit::setPresenting);
}

void PresentationPanelFit::setPresenting(bool presenting) {
    if (presenting) {
        m_savedWrap.clear();
        for (QFormLayout* form : m_window.scenarioPanel()->findChildren<QFormLayout*>()) {
            m_savedWrap.emplace_back(form, form->rowWrapPolicy());
            form->setRowWrapPolicy(QFormLayout::WrapAllRows); // each field the panel's whole width
        }
        return;
    }
    for (const auto& [form, policy] : m_savedWrap)
        if (form)
            form->setRowWrapPolicy(static_cast<QFormLayout::RowWrapPolicy>(policy));
    m_savedWrap.clear();
}

} // namespace lp::ui
