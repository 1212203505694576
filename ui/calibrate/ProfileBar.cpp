#include "ui/calibrate/ProfileBar.h"

#include "ui/charts/ChartBuilders.h"
#include "ui/widgets/FlowLayout.h"

#include <QLabel>
#include <QPushButton>

namespace lp::ui {

ProfileBar::ProfileBar(QWidget* parent)
    : QFrame(parent), m_text(new QLabel(this)), m_import(new QPushButton(tr("&Import profile..."), this)),
      m_load(new QPushButton(tr("&Load profile..."), this)),
      m_save(new QPushButton(tr("&Save profile..."), this)),
      m_builtin(new QPushButton(tr("Use &built-in"), this)) {
    setObjectName(QStringLiteral("profileBar"));
    setStyleSheet(QStringLiteral("QFrame#profileBar { border: 1px solid %1; border-radius: 4px; }")
                      .arg(recedingColor(palette(), 0.25).name()));
    m_text->setTextFormat(Qt::RichText);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_import->setToolTip(tr("Read a hardware profile measured on another machine (layout-planner-cli "
                            "calibrate -o PROFILE.json) and apply it to the scenario"));
    m_load->setToolTip(tr("Read a hardware profile to look at and compare before applying it"));
    m_save->setToolTip(tr("Write the measured (or loaded) profile, or else the active one, to a JSON file"));
    m_builtin->setToolTip(tr("Go back to the built-in profile of the scenario's GPU"));
    // The buttons go under the text where the page is narrow (a projector's presentation fonts).
    auto* layout = new FlowLayout(this, 8, 4);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->addWidget(m_text);
    layout->setStretchItem(m_text);
    for (QPushButton* b : {m_import, m_load, m_save, m_builtin})
        layout->addWidget(b);
    layout->setPushRight(m_import);
}

void ProfileBar::showProfile(const QString& html, bool overrideActive, const QString& saveToolTip) {
    m_text->setText(html);
    m_builtin->setEnabled(overrideActive);
    m_save->setEnabled(true);
    m_save->setToolTip(saveToolTip);
}

} // namespace lp::ui
