#include "ui/charts/ChartPanel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

namespace lp::ui {

ChartPanel::ChartPanel(const QString& title, const QString& name, QWidget* parent)
    : QWidget(parent), m_chart(new QChart), m_view(new QChartView(m_chart, this)),
      m_title(new QLabel(title, this)), m_verdict(new QLabel(this)), m_headline(new QLabel(this)) {
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.1);
    m_title->setFont(titleFont);
    m_verdict->setObjectName(name + QStringLiteral("Verdict"));
    m_verdict->setTextFormat(Qt::PlainText);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    m_verdict->hide(); // until there is a verdict to show
    m_headline->setObjectName(name + QStringLiteral("Headline"));
    m_headline->setTextFormat(Qt::PlainText);
    m_headline->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Minimum);
    m_headline->setWordWrap(true); // a narrow page (or presentation mode's font) wraps it, never cuts it
    m_view->setRenderHint(QPainter::Antialiasing, false);
    // Whole repaints: a new plan moves axis labels and names in the chart's deferred layout, and partial
    // repaints left their old places on screen (ghost labels when the tour stepped quickly).
    m_view->setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    m_view->setFocusPolicy(Qt::NoFocus);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_title);
    auto* headlineRow = new QHBoxLayout;
    headlineRow->setSpacing(6);
    headlineRow->addWidget(m_verdict, 0, Qt::AlignTop);
    headlineRow->addWidget(m_headline, 1);
    layout->addLayout(headlineRow);
    layout->addWidget(m_view, 1);
}

void ChartPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        applyTheme();
}

QString ChartPanel::headline() const {
    if (m_verdict->text().isEmpty())
        return m_headline->text();
    return m_verdict->text() + QLatin1Char(' ') + m_headline->text();
}

QColor ChartPanel::headlineColor() const {
    return m_headline->palette().color(QPalette::WindowText);
}

void ChartPanel::setHeadlineToolTip(const QString& tip) {
    m_headline->setToolTip(tip);
}

void ChartPanel::setHeadline(const QString& verdict, const QString& text, const QColor& colour) {
    m_verdict->setText(verdict);
    m_verdict->setVisible(!verdict.isEmpty());
    m_headline->setText(text);
    for (QLabel* label : {m_verdict, m_headline}) {
        if (label->palette().color(QPalette::WindowText) != colour) {
            QPalette pal = label->palette();
            pal.setColor(QPalette::WindowText, colour);
            label->setPalette(pal);
        }
    }
}

} // namespace lp::ui
