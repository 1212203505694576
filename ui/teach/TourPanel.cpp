#include "ui/teach/TourPanel.h"

#include "ui/document/ScenarioDocument.h"
#include "ui/teach/TeachingTexts.h"
#include "ui/teach/Tour.h"
#include "ui/widgets/Palette.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QStyle>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <utility>

namespace lp::ui {
TourPanel::TourPanel(Tour* tour, ScenarioDocument* doc, QWidget* parent)
    : QWidget(parent), m_tour(tour), m_doc(doc), m_counter(new QLabel(this)), m_title(new QLabel(this)),
      m_resumed(new QLabel(this)), m_text(new QTextBrowser(this)), m_checks(new QLabel(this)),
      m_back(new QPushButton(style()->standardIcon(QStyle::SP_ArrowBack), tr("&Back"), this)),
      m_next(new QPushButton(style()->standardIcon(QStyle::SP_ArrowForward), tr("&Next"), this)),
      m_end(new QPushButton(tr("&End Tour"), this)) {
    setObjectName(QStringLiteral("tourPanel"));
    const std::pair<QWidget*, const char*> names[] = {
        {m_counter, "tourCounter"}, {m_title, "tourTitle"}, {m_text, "tourText"}, {m_checks, "tourChecks"},
        {m_back, "tourBack"},       {m_next, "tourNext"},   {m_end, "tourEnd"},   {m_resumed, "tourResumed"}};
    for (const auto& [widget, name] : names)
        widget->setObjectName(QLatin1String(name));
    setUpWidgets();
    layOut();

    connect(m_back, &QPushButton::clicked, m_tour, &Tour::back);
    connect(m_next, &QPushButton::clicked, m_tour, &Tour::next);
    connect(m_end, &QPushButton::clicked, m_tour, &Tour::stop);
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("glossary"))
            emit glossaryRequested(url.path());
    });
    connect(m_tour, &Tour::stepChanged, this, [this] {
        refresh();
        m_text->verticalScrollBar()->setValue(0);
    });
    connect(m_tour, &Tour::activeChanged, this, [this](bool active) {
        if (!active)
            setResumed(false);
    });
    connect(m_doc, &ScenarioDocument::planChanged, this, &TourPanel::refreshFigures);
    connect(m_tour, &Tour::unitChanged, this, &TourPanel::refreshFigures);
    fitToFont();
    refresh();
}

void TourPanel::setUpWidgets() {
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    m_title->setFont(titleFont);
    m_title->setWordWrap(true);
    m_title->setTextFormat(Qt::PlainText);
    m_counter->setTextFormat(Qt::PlainText);
    m_resumed->setTextFormat(Qt::PlainText);
    m_resumed->setText(teachingText("tour_panel", "resumed"));
    m_resumed->setWordWrap(true);
    m_resumed->hide();
    m_text->setOpenLinks(false);
    m_text->setFrameShape(QFrame::NoFrame);
    m_text->viewport()->setAutoFillBackground(false);
    m_text->setFocusPolicy(Qt::NoFocus); // keys belong to the tour's shortcuts
    m_checks->setTextFormat(Qt::RichText);
    m_checks->setWordWrap(true);
    m_checks->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_checks->setToolTip(teachingText("tour_panel", "checks_heading"));
    m_back->setToolTip(teachingText("actions", "back"));
    m_next->setToolTip(teachingText("actions", "next"));
    m_end->setToolTip(teachingText("actions", "end"));
    for (QPushButton* b : {m_back, m_next, m_end})
        b->setFocusPolicy(Qt::NoFocus); // Left/Right step the tour, not the focus
    m_next->setDefault(true);
}

// The step's text on the left; the checked claims and the buttons on the right (setVertical stacks them).
void TourPanel::layOut() {
    auto* head = new QHBoxLayout;
    head->addWidget(m_counter);
    head->addWidget(m_resumed, 1);
    auto* left = new QVBoxLayout;
    left->setSpacing(4);
    left->addLayout(head);
    left->addWidget(m_title);
    left->addWidget(m_text, 1);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addWidget(m_next);
    auto* right = new QVBoxLayout;
    right->setSpacing(6);
    right->addWidget(m_checks, 1);
    right->addLayout(buttons);
    right->addWidget(m_end);

    m_layout = new QBoxLayout(QBoxLayout::LeftToRight, this);
    m_layout->setContentsMargins(8, 6, 8, 6);
    m_layout->setSpacing(16);
    m_layout->addLayout(left, 3);
    m_layout->addLayout(right, 1);
}

void TourPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        fitToFont();
}

// Room for about five lines of text, whatever the font (presentation mode makes it 1.6x larger).
void TourPanel::fitToFont() {
    const int line = fontMetrics().lineSpacing();
    m_text->setMinimumHeight(line * 5 + 8);
    m_checks->setMinimumWidth(line * 16);
    m_checks->setMinimumHeight(line * 8); // the heading (two lines at this width) and five claims
}

void TourPanel::setResumed(bool resumed) {
    m_resumed->setVisible(resumed);
}

void TourPanel::setVertical(bool vertical) {
    m_layout->setDirection(vertical ? QBoxLayout::TopToBottom : QBoxLayout::LeftToRight);
    m_layout->setStretch(0, vertical ? 1 : 3);
    m_layout->setStretch(1, vertical ? 0 : 1);
}

bool TourPanel::isVertical() const {
    return m_layout->direction() == QBoxLayout::TopToBottom;
}

void TourPanel::refresh() {
    const int n = m_tour->count();
    const int i = m_tour->current();
    m_counter->setText(teachingText("tour_panel", "counter").arg(i + 1).arg(n));
    m_back->setEnabled(i > 0);
    m_next->setText(i + 1 >= n ? tr("&Finish") : tr("&Next"));
    const core::TourStep* step = m_tour->currentStep();
    m_title->setText(step ? QString::fromStdString(step->title) : QString());
    refreshFigures();
}

void TourPanel::refreshFigures() {
    if (!m_tour->isActive())
        return;
    m_text->setHtml(m_tour->currentHtml());
    // The claims, each with its verdict: the planner checks what the text says about this scenario.
    QString html =
        QStringLiteral("<b>%1</b>").arg(teachingText("tour_panel", "checks_heading").toHtmlEscaped());
    html += QStringLiteral("<table cellspacing=\"2\">");
    for (const core::CheckResult& r : m_tour->currentChecks()) {
        const QString mark =
            r.ok ? teachingText("tour_panel", "check_ok") : teachingText("tour_panel", "check_failed");
        const QColor colour = r.ok ? palette::bandGood() : palette::error();
        html +=
            QStringLiteral("<tr><td style=\"color:%1\"><b>%2</b></td><td>%3</td></tr>")
                .arg(colour.name(), mark.toHtmlEscaped(), QString::fromStdString(r.claim).toHtmlEscaped());
    }
    html += QStringLiteral("</table>");
    m_checks->setText(html);
}

} // namespace lp::ui
