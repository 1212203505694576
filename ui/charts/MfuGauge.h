#pragma once
// The MFU dial: 0-100% with the core's bands (under 20% red, "something is wrong"; 35-55% green,
// typical of well-tuned pretraining), the needle at the Plan's MFU, the value in the middle. A plan that
// does not fit greys the whole dial (core::MfuGaugeState): its MFU is only what it would reach.
#include "core/estimate/KeyFigures.h"
#include "core/measured/TrustBand.h"

#include <QPixmap>
#include <QWidget>

#include <optional>

namespace lp::ui {

class MfuGauge : public QWidget {
    Q_OBJECT
public:
    explicit MfuGauge(QWidget* parent = nullptr);

    void setState(const core::MfuGaugeState& state, bool stale);
    // The MFU band of measured runs like the plan, shaded over the dial; nullopt or unavailable: none drawn.
    void setTrustBand(const std::optional<core::TrustBand>& band);
    bool showsTrustBand() const { return m_trust && m_trust->available; }
    double mfu() const { return m_state.mfu; }
    bool isGreyed() const { return m_state.greyed(); } // the plan does not fit
    QString valueText() const;                         // "41.2 %"
    QString bandText() const; // what the band means for the current value, or "does not fit: ..."

    // Where the value and a scale label ("0", "100" for fraction 0 and 1) are drawn, for tests.
    QRectF valueTextRect() const;
    QRectF scaleLabelRect(double fraction) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void explainRequested(const QString& key);
    void previewRequested(const QString& key); // pointed at; empty: the pointer left

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    struct Geometry {
        QPointF centre;
        double radius = 0;
        double thickness = 0;
    };
    Geometry geometry() const;
    QFont scaleFont() const;
    QFont valueFont(const Geometry& g) const; // as large as fits between the "0" and "100" labels
    void paintDial(QPainter& p, const Geometry& g, bool greyed) const; // bands, ticks, labels: cached
    QPixmap m_dial;
    QString m_dialKey;
    core::MfuGaugeState m_state;
    std::optional<core::TrustBand> m_trust;
    QString m_baseToolTip;
    bool m_stale = false;
};

} // namespace lp::ui
