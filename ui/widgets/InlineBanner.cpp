#include "ui/widgets/InlineBanner.h"

#include "ui/widgets/Palette.h"

#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace lp::ui {

InlineBanner::InlineBanner(QWidget* parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_title(new QLabel(this)), m_details(new QLabel(this)),
      m_actions(new QHBoxLayout), m_close(new QToolButton(this)) {
    setObjectName(QStringLiteral("inlineBanner"));
    setFrameShape(QFrame::NoFrame);
    setAutoFillBackground(true);
    auto* text = new QVBoxLayout;
    text->setSpacing(2);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_details->setWordWrap(true);
    m_details->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->addWidget(m_title);
    text->addWidget(m_details);
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Hide this message"));
    m_close->setAccessibleName(tr("Hide message"));
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        emit closed();
    });
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(10, 6, 6, 6);
    row->addWidget(m_icon, 0, Qt::AlignTop);
    row->addLayout(text, 1);
    row->addLayout(m_actions);
    row->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void InlineBanner::showMessage(Kind kind, const QString& title, const QString& details) {
    m_kind = kind;
    clearActions();
    m_title->setText(title);
    m_details->setText(details);
    m_details->setVisible(!details.isEmpty());
    QColor accent = palette::info();
    QString iconPath = QStringLiteral(":/icons/severity-info.svg");
    if (kind == Kind::Warning) {
        accent = palette::warning();
        iconPath = QStringLiteral(":/icons/severity-warning.svg");
    } else if (kind == Kind::Error) {
        accent = palette::error();
        iconPath = QStringLiteral(":/icons/severity-error.svg");
    }
    const int size = fontMetrics().height() + 4;
    m_icon->setPixmap(QIcon(iconPath).pixmap(QSize(size, size), devicePixelRatioF()));
    m_accent = accent;
    update();
    setAccessibleName(title);
    show();
}

// Painted rather than a style sheet: a style sheet fixes the labels' font at the size of the moment, which
// then stayed large after presentation mode (or small during it).
void InlineBanner::paintEvent(QPaintEvent* event) {
    QFrame::paintEvent(event);
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QColor fill = m_accent;
    fill.setAlpha(38);
    painter.setPen(QPen(m_accent, 1));
    painter.setBrush(fill);
    painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
    painter.fillRect(QRect(0, 0, 4, height()), m_accent);
}

QString InlineBanner::title() const {
    return m_title->text();
}
QString InlineBanner::details() const {
    return m_details->text();
}

QPushButton* InlineBanner::addAction(const QString& id, const QString& text, const QString& toolTip) {
    auto* button = new QPushButton(text, this);
    button->setObjectName(id);
    button->setToolTip(toolTip);
    connect(button, &QPushButton::clicked, this, [this, id] {
        hide();
        emit actionTriggered(id);
    });
    m_actions->addWidget(button, 0, Qt::AlignTop);
    return button;
}

void InlineBanner::setClosable(bool closable) {
    m_close->setVisible(closable);
}

void InlineBanner::clearActions() {
    while (QLayoutItem* item = m_actions->takeAt(0)) {
        if (QWidget* w = item->widget())
            w->deleteLater();
        delete item;
    }
}

} // namespace lp::ui
