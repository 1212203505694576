#pragma once
// What presentation mode asks of the widgets, readable by any chart or painter without depending on
// PresentationMode: the scales are properties of the application object, 1.0 outside presentation mode.
//   pen.setWidthF(lp::ui::presentation::penWidth(1.5));   // 1.5 normally, 3.0 on a projector
// Widgets that want to follow changes can re-read them on QEvent::ApplicationFontChange (the mode
// changes the application font together with the scales).
#include <QCoreApplication>
#include <QVariant>

namespace lp::ui::presentation {

inline constexpr const char* kActiveProperty = "lpPresentationMode";         // bool
inline constexpr const char* kFontScaleProperty = "lpPresentationFontScale"; // double, 1.0 by default
inline constexpr const char* kLineScaleProperty = "lpPresentationLineScale"; // double, 1.0 by default

inline double scaleProperty(const char* name) {
    const QCoreApplication* app = QCoreApplication::instance();
    if (!app)
        return 1.0;
    bool ok = false;
    const double v = app->property(name).toDouble(&ok);
    return ok && v > 0 ? v : 1.0;
}

inline bool isActive() {
    const QCoreApplication* app = QCoreApplication::instance();
    return app && app->property(kActiveProperty).toBool();
}
inline double fontScale() {
    return scaleProperty(kFontScaleProperty);
}
inline double lineScale() {
    return scaleProperty(kLineScaleProperty);
}
// A pen width in presentation mode: `base` times the line scale.
inline double penWidth(double base) {
    return base * lineScale();
}

} // namespace lp::ui::presentation
