#include "ui/calibrate/MeasuredProfileBox.h"

#include "core/estimate/KeyFigures.h"
#include "ui/charts/ChartBuilders.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include <cmath>

namespace lp::ui {
namespace {

QLabel* richLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::RichText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

// "MFU 41.2 % → 44.0 % (+2.8 points)" and the step time and tokens/s either side, in the core's words.
QString changeHtml(const core::Plan& before, const core::Plan& after, const QPalette& palette) {
    const core::PlanChangeText change = core::planChangeText(before, after);
    const double points = change.pointsValue;
    const QColor color = std::fabs(points) < 0.05 ? recedingColor(palette, 0.6)
                                                  : (points > 0 ? palette::bandGood() : palette::warning());
    return MeasuredProfileBox::tr("<span style='font-size:large'>MFU <b>%1</b> → <b>%2</b></span> "
                                  "<span style='color:%3'>(%4 points)</span>")
               .arg(qs(change.mfuBefore), qs(change.mfuAfter), color.name(), qs(change.points)) +
           QStringLiteral("<br>") + qs(change.rates).toHtmlEscaped();
}

} // namespace

MeasuredProfileBox::MeasuredProfileBox(QWidget* parent)
    : QGroupBox(tr("Measured profile"), parent), m_summary(richLabel(this)),
      m_apply(new QPushButton(tr("&Apply to scenario"), this)), m_compare(richLabel(this)) {
    m_apply->setToolTip(tr("Use this profile for every estimate of the scenario (the status bar names it)"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    auto* applyRow = new QHBoxLayout;
    applyRow->addWidget(m_apply);
    applyRow->addStretch(1);
    layout->addLayout(applyRow);
    layout->addWidget(m_compare);
}

void MeasuredProfileBox::showProfile(const std::optional<core::HardwareProfile>& profile,
                                     const QString& source, const QStringList& findings,
                                     const QStringList& notes) {
    const QString muted = recedingColor(palette(), 0.6).name();
    QStringList lines;
    if (profile)
        lines
            << QStringLiteral("<b>%1</b>").arg(qs(profile->name).toHtmlEscaped()) +
                   (profile->date.empty() ? QString() : QStringLiteral(", %1").arg(qs(profile->date))) +
                   QStringLiteral("<br><span style='color:%1'>%2</span>").arg(muted, source.toHtmlEscaped());
    for (const QString& finding : findings)
        lines << finding.toHtmlEscaped();
    QStringList escaped;
    for (const QString& note : notes)
        escaped << note.toHtmlEscaped();
    if (!escaped.isEmpty())
        lines << QStringLiteral("<span style='color:%1'>%2</span>")
                     .arg(muted, escaped.join(QStringLiteral("<br>")));
    if (lines.isEmpty())
        lines << tr("<i>No measured profile yet.</i> Run the benchmarks, or load or import a profile: what "
                    "it changes on this scenario shows here.");
    m_summary->setText(lines.join(QStringLiteral("<br>")));
}

QString MeasuredProfileBox::summaryText() const {
    return QTextDocumentFragment::fromHtml(m_summary->text()).toPlainText();
}

void MeasuredProfileBox::showApplyState(bool available, bool applied) {
    m_apply->setEnabled(available && !applied);
    m_apply->setText(applied ? tr("Applied to the scenario") : tr("&Apply to scenario"));
}

void MeasuredProfileBox::showComparison(const QString& heading, const core::Plan* before,
                                        const core::Plan* after) {
    if (!before || !after) {
        m_compare->clear();
        return;
    }
    if (!before->valid || !after->valid) {
        m_compare->setText(
            heading + QStringLiteral("<br>") +
            tr("the layout is invalid, so there is no MFU to compare (fix it in the Plan tab)."));
        return;
    }
    m_compare->setText(heading + QStringLiteral("<br>") + changeHtml(*before, *after, palette()));
}

} // namespace lp::ui
