#include "ui/charts/MfuGauge.h"

#include "core/estimate/KeyFigures.h"
#include "ui/widgets/ExplainTrigger.h"
#include "ui/widgets/Format.h"
#include "ui/widgets/Palette.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <numbers>

namespace lp::ui {
namespace {
constexpr double kStartDeg = 210.0; // 0% at the lower left
constexpr double kSpanDeg = 240.0;  // clockwise to 100% at the lower right
constexpr double kAlarm = core::kMfuAlarm;
constexpr double kGoodLow = core::kMfuWellTunedLow;
constexpr double kGoodHigh = core::kMfuWellTunedHigh;

double angleFor(double fraction) {
    return kStartDeg - kSpanDeg * std::clamp(fraction, 0.0, 1.0);
}
} // namespace

MfuGauge::MfuGauge(QWidget* parent) : QWidget(parent) {
    setFocusPolicy(Qt::StrongFocus);
    setObjectName(QStringLiteral("mfuGauge"));
    setAccessibleName(tr("Model FLOPs utilization"));
    setToolTip(tr("Model FLOPs utilization: the share of the GPUs' peak 16-bit FLOP/s spent on the model's "
                  "own FLOPs. Under 20%: something is wrong; 35-55%: typical of well-tuned pretraining."));
    m_baseToolTip = toolTip();
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    auto* trigger = new ExplainTrigger(this, [] { return QStringLiteral("mfu"); });
    relayExplanations(trigger, this);
}

QSize MfuGauge::sizeHint() const {
    return {240, 200};
}
QSize MfuGauge::minimumSizeHint() const {
    return {160, 140};
}

void MfuGauge::setState(const core::MfuGaugeState& state, bool stale) {
    if (state.mfu == m_state.mfu && state.bandText == m_state.bandText && stale == m_stale)
        return;
    m_state = state;
    m_stale = stale;
    setAccessibleDescription(valueText() + QStringLiteral(", ") + bandText());
    update();
}

void MfuGauge::setTrustBand(const std::optional<core::TrustBand>& band) {
    m_trust = band;
    setToolTip(band ? m_baseToolTip + QStringLiteral("\n\n") + qs(band->sentence) : m_baseToolTip);
    update();
}

QString MfuGauge::valueText() const {
    return qs(m_state.valueText.empty() ? core::mfuText(m_state.mfu) : m_state.valueText);
}

QString MfuGauge::bandText() const {
    return qs(m_state.bandText.empty() ? core::mfuBandText(m_state.mfu) : m_state.bandText);
}

MfuGauge::Geometry MfuGauge::geometry() const {
    const double w = width();
    const double h = height();
    // The arc spans 240 degrees: 1.5 radii tall; fit it in the widget.
    Geometry g;
    g.radius = std::max(10.0, std::min(w / 2.0 - 8, (h - 8) / 1.5) - 4);
    g.centre = QPointF(w / 2.0, 6 + g.radius + 2);
    g.thickness = std::max(8.0, g.radius * 0.16);
    return g;
}

void MfuGauge::paintDial(QPainter& p, const Geometry& g, bool greyed) const {
    const QRectF arcRect(g.centre.x() - g.radius, g.centre.y() - g.radius, 2 * g.radius, 2 * g.radius);
    auto drawBand = [&](double from, double to, const QColor& colour) {
        p.setPen(QPen(colour, g.thickness, Qt::SolidLine, Qt::FlatCap));
        const double a0 = angleFor(from);
        const double a1 = angleFor(to);
        p.drawArc(arcRect, static_cast<int>(a0 * 16), static_cast<int>((a1 - a0) * 16));
    };
    QColor neutral = palette::bandNeutral();
    neutral.setAlpha(90);
    drawBand(0, 1, neutral);
    if (!greyed) { // no band applies to a plan that does not fit
        drawBand(0, kAlarm, palette::bandAlarm());
        drawBand(kGoodLow, kGoodHigh, palette::bandGood());
    }

    QColor muted = palette().color(QPalette::Text);
    muted.setAlphaF(0.6f);
    p.setFont(scaleFont());
    for (double f : {0.0, kAlarm, kGoodLow, kGoodHigh, 1.0}) {
        const double a = angleFor(f) * std::numbers::pi / 180.0;
        const QPointF dir(std::cos(a), -std::sin(a));
        p.setPen(QPen(muted, 1.2));
        p.drawLine(g.centre + dir * (g.radius - g.thickness / 2 - 2),
                   g.centre + dir * (g.radius + g.thickness / 2 + 2));
        p.setPen(muted);
        p.drawText(scaleLabelRect(f), Qt::AlignCenter, QString::number(std::lround(f * 100)));
    }
}

QFont MfuGauge::scaleFont() const {
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    return small;
}

QRectF MfuGauge::scaleLabelRect(double fraction) const {
    const Geometry g = geometry();
    const QFontMetricsF fm(scaleFont());
    const double a = angleFor(fraction) * std::numbers::pi / 180.0;
    const QPointF at =
        g.centre + QPointF(std::cos(a), -std::sin(a)) * (g.radius - g.thickness / 2 - 4 - fm.height() * 0.7);
    const double width = fm.horizontalAdvance(QString::number(std::lround(fraction * 100)));
    return {at.x() - width / 2, at.y() - fm.height() / 2, width, fm.height()};
}

QFont MfuGauge::valueFont(const Geometry& g) const {
    QFont big = font();
    big.setPointSizeF(std::max(12.0, g.radius / 4.2));
    big.setBold(true);
    // Between the "0" and "100" labels (presentation mode's large labels leave less room).
    const double room = 2 * (scaleLabelRect(1).left() - g.centre.x()) - 8;
    const double wide = QFontMetricsF(big).horizontalAdvance(QStringLiteral("100.0 %"));
    if (wide > room && room > 0)
        big.setPointSizeF(std::max(6.0, big.pointSizeF() * room / wide));
    return big;
}

QRectF MfuGauge::valueTextRect() const {
    const Geometry g = geometry();
    const QFontMetricsF bm(valueFont(g));
    const double width = bm.horizontalAdvance(valueText());
    return {g.centre.x() - width / 2, g.centre.y() + g.radius * 0.12, width, bm.height()};
}

void MfuGauge::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const QColor text = pal.color(QPalette::Text);
    QColor muted = text;
    muted.setAlphaF(0.6f);
    const Geometry g = geometry();
    const QPointF centre = g.centre;
    const double radius = g.radius;
    const double thickness = g.thickness;

    // The dial does not change with the value: draw it once per size, palette and screen.
    const qreal dpr = devicePixelRatioF();
    const QString key = QStringLiteral("%1x%2@%3:%4:%5")
                            .arg(width())
                            .arg(height())
                            .arg(dpr)
                            .arg(text.name(), font().toString()) +
                        (isGreyed() ? QStringLiteral(":grey") : QString());
    if (key != m_dialKey) {
        m_dial = QPixmap(size() * dpr);
        m_dial.setDevicePixelRatio(dpr);
        m_dial.fill(Qt::transparent);
        QPainter dp(&m_dial);
        dp.setRenderHint(QPainter::Antialiasing);
        paintDial(dp, g, isGreyed());
        m_dialKey = key;
    }
    p.drawPixmap(0, 0, m_dial);
    if (showsTrustBand() && !isGreyed()) { // where measured runs like this one landed
        const QRectF arcRect(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius);
        QColor shade = pal.color(QPalette::Highlight);
        shade.setAlpha(170);
        p.setPen(QPen(shade, thickness * 0.5, Qt::SolidLine, Qt::FlatCap));
        const double a0 = angleFor(m_trust->mfuLow);
        const double a1 = angleFor(std::max(m_trust->mfuHigh, m_trust->mfuLow + 0.004));
        p.drawArc(arcRect, static_cast<int>(a0 * 16), static_cast<int>((a1 - a0) * 16));
    }
    const QFont small = scaleFont();
    const QFontMetricsF fm(small);

    // The needle.
    const double a = angleFor(m_state.mfu) * std::numbers::pi / 180.0;
    const QPointF dir(std::cos(a), -std::sin(a));
    const QPointF normal(-dir.y(), dir.x());
    QPainterPath needle;
    needle.moveTo(centre + dir * (radius + thickness / 2));
    needle.lineTo(centre + normal * 4.0);
    needle.lineTo(centre - normal * 4.0);
    needle.closeSubpath();
    const bool alarm = m_state.band == core::MfuBand::Alarm;
    QColor needleColour = alarm ? palette::bandAlarm() : text;
    if (m_stale || isGreyed())
        needleColour.setAlphaF(0.4f);
    p.setPen(Qt::NoPen);
    p.setBrush(needleColour);
    p.drawPath(needle);
    p.drawEllipse(centre, 5, 5);

    // The value and its caption under the hub.
    const QFont big = valueFont(g);
    p.setFont(big);
    p.setPen(isGreyed() ? muted : alarm ? palette::bandAlarm() : text);
    const QFontMetricsF bm(big);
    const QRectF valueBox(centre.x() - radius, centre.y() + radius * 0.12, 2 * radius, bm.height());
    p.drawText(valueBox, Qt::AlignHCenter | Qt::AlignTop, valueText());
    p.setFont(small);
    p.setPen(muted);
    const QRectF captionBox(centre.x() - radius, valueBox.bottom(), 2 * radius, fm.height() * 1.2);
    p.drawText(captionBox, Qt::AlignHCenter | Qt::AlignTop,
               isGreyed() ? tr("does not fit")
               : m_stale  ? tr("MFU (last valid layout)")
                          : tr("MFU"));

    if (hasFocus()) {
        QPen focusPen(pal.color(QPalette::Highlight), 1.5, Qt::DotLine);
        p.setPen(focusPen);
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 4, 4);
    }
}

} // namespace lp::ui
