#include "ui/validate/ValidationSummary.h"

#include "core/measured/ValidationRun.h"
#include "core/measured/ValidationText.h"
#include "ui/charts/ChartBuilders.h"
#include "ui/validate/ValidationModel.h"
#include "ui/widgets/FlowLayout.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QEvent>
#include <QFrame>
#include <QGridLayout>
#include <QLabel>

namespace lp::ui {
namespace {

const char* const kMetricProperty = "metric";

QString targetText(double fraction) {
    return QStringLiteral("≤ %1%").arg(formatNumber(100.0 * fraction, 0));
}

} // namespace

ValidationSummary::ValidationSummary(QWidget* parent) : QWidget(parent), m_cards(new FlowLayout(this, 8, 8)) {
    m_cards->setContentsMargins(0, 0, 0, 0);
}

int ValidationSummary::heightForWidth(int width) const {
    return m_cards->heightForWidth(width);
}

void ValidationSummary::showReport(const core::ValidationReport& report) {
    while (QLayoutItem* item = m_cards->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_lines.clear();
    for (const core::MetricSummary* s : core::orderedSummary(report))
        addMetricCard(*s);
    addMemoryFitCard(report);
}

// The median error, green when it meets its target, and the largest one; a click filters the table.
void ValidationSummary::addMetricCard(const core::MetricSummary& s) {
    const QString metric = qs(s.metric);
    const bool throughput = metric == QLatin1String("throughput");
    const core::ErrorTarget target = core::errorTarget(s.metric);
    const QColor medianColor = s.medianAbsError <= target.median
                                   ? palette::bandGood()
                                   : ValidationModel::errorColor(s.medianAbsError);
    const QColor maxColor =
        s.maxAbsError <= target.max ? palette::bandGood() : ValidationModel::errorColor(s.maxAbsError);
    const QString median = qs(core::errorText(s.medianAbsError));
    const QString max = qs(core::errorText(s.maxAbsError));
    QFrame* card = addCard(QStringLiteral("summaryCard"),
                           throughput ? tr("Throughput (all)") : ValidationModel::metricName(metric), median,
                           medianColor,
                           tr("median<br>max <span style='color:%1'>%2</span> · %n values", nullptr, s.count)
                               .arg(maxColor.name(), max));
    card->setProperty(kMetricProperty, metric);
    card->setCursor(Qt::PointingHandCursor);
    card->installEventFilter(this);
    card->setToolTip(tr("%1: median absolute error %2 (target %3), largest %4 (target %5) over %n values. "
                        "Click to show only these rows.",
                        nullptr, s.count)
                         .arg(ValidationModel::metricName(metric), median, targetText(target.median), max,
                              targetText(target.max)));
    m_lines << qs(core::summaryLine(s));
}

// Every run ran, so its plan should fit its GPUs: how many do, and which do not (by how much).
void ValidationSummary::addMemoryFitCard(const core::ValidationReport& report) {
    if (report.plannedCases == 0)
        return;
    const int over = static_cast<int>(report.overCapacity.size());
    const bool ok = core::beyondFitTolerance(report) == 0;
    QFrame* card = addCard(QStringLiteral("memoryFitCard"), tr("Memory fit"),
                           QStringLiteral("%1/%2").arg(report.plannedCases - over).arg(report.plannedCases),
                           ok ? palette::bandGood() : ValidationModel::errorColor(core::kFairError),
                           tr("runs fit<br>%n planned over", nullptr, over));
    QStringList lines{qs(core::memoryFitSentence(report))};
    for (const core::OverCapacity& o : report.overCapacity)
        lines << tr("%1: %2 of capacity").arg(qs(o.caseId), qs(core::errorText(o.usedFraction)));
    card->setToolTip(lines.join(QLatin1Char('\n')));
    m_lines << QStringLiteral("memory fit: ") + lines.front();
}

// A caption over a large coloured value and a small (rich-text) detail.
QFrame* ValidationSummary::addCard(const QString& objectName, const QString& caption, const QString& value,
                                   const QColor& valueColor, const QString& detail) {
    auto* card = new QFrame(this);
    card->setObjectName(objectName);
    card->setStyleSheet(QStringLiteral("QFrame#%1 { border: 1px solid %2; border-radius: 4px; }")
                            .arg(objectName, recedingColor(palette(), 0.25).name()));
    auto* grid = new QGridLayout(card);
    grid->setContentsMargins(10, 5, 10, 5);
    grid->setHorizontalSpacing(8);
    grid->setVerticalSpacing(0);
    auto* captionLabel = new QLabel(caption, card);
    captionLabel->setForegroundRole(QPalette::PlaceholderText);
    auto* valueLabel = new QLabel(value, card);
    QFont big = valueLabel->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    valueLabel->setFont(big);
    valueLabel->setStyleSheet(QStringLiteral("color: %1").arg(valueColor.name()));
    auto* detailLabel = new QLabel(detail, card);
    detailLabel->setTextFormat(Qt::RichText);
    QFont small = detailLabel->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    detailLabel->setFont(small);
    grid->addWidget(captionLabel, 0, 0, 1, 2);
    grid->addWidget(valueLabel, 1, 0, Qt::AlignVCenter);
    grid->addWidget(detailLabel, 1, 1, Qt::AlignVCenter);
    m_cards->addWidget(card);
    return card;
}

bool ValidationSummary::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::MouseButtonRelease && watched->property(kMetricProperty).isValid()) {
        emit metricClicked(watched->property(kMetricProperty).toString());
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace lp::ui
