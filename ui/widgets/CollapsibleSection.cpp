#include "ui/widgets/CollapsibleSection.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

namespace lp::ui {

CollapsibleSection::CollapsibleSection(const QString& title, QWidget* parent)
    : QWidget(parent), m_header(new QToolButton(this)), m_summary(new QLabel(this)),
      m_layout(new QVBoxLayout(this)) {
    m_header->setText(title);
    m_header->setCheckable(true);
    m_header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_header->setArrowType(Qt::RightArrow);
    m_header->setAutoRaise(true);
    m_header->setToolTip(tr("Show or hide: %1").arg(title));
    m_summary->setForegroundRole(QPalette::PlaceholderText);
    m_summary->setTextInteractionFlags(Qt::NoTextInteraction);
    // The summary takes the header row's spare width and wraps in a narrow page, never widening it.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    m_summary->setWordWrap(true);
    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_header, 0, Qt::AlignTop);
    row->addWidget(m_summary, 1);
    row->addStretch(0); // takes the room while the summary is hidden: the header stays at the left
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(2);
    m_layout->addLayout(row);
    connect(m_header, &QToolButton::toggled, this, &CollapsibleSection::setExpanded);
}

void CollapsibleSection::setContent(QWidget* content) {
    m_content = content;
    m_layout->addWidget(content);
    setExpanded(m_header->isChecked());
}

void CollapsibleSection::setExpanded(bool expanded) {
    m_header->setChecked(expanded);
    m_header->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
    m_summary->setVisible(!expanded);
    if (m_content)
        m_content->setVisible(expanded);
    emit expandedChanged(expanded);
}

bool CollapsibleSection::isExpanded() const {
    return m_header->isChecked();
}

void CollapsibleSection::setSummary(const QString& summary) {
    m_summary->setText(summary);
}

} // namespace lp::ui
