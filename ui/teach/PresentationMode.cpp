#include "ui/teach/PresentationMode.h"

#include "ui/teach/TeachingTexts.h"
#include "ui/widgets/PresentationStyle.h"

#include <QApplication>
#include <QDockWidget>
#include <QEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMainWindow>
#include <QTabBar>
#include <QTabWidget>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QAbstractBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QXYSeries>

#include <algorithm>

namespace lp::ui {
namespace {

// Pens are scaled from the width the chart itself last set: "lpBaseWidth" remembers it, and
// "lpScaledWidth" what presentation mode made of it (a chart that re-sets its pen starts over).
template <typename SetPen>
void scalePen(QObject* owner, QPen pen, double scale, double minimumBase, SetPen setPen) {
    const QVariant scaled = owner->property("lpScaledWidth");
    double base = pen.widthF();
    if (scaled.isValid() && qFuzzyCompare(scaled.toDouble(), pen.widthF()))
        base = owner->property("lpBaseWidth").toDouble();
    if (scale == 1.0) {
        if (scaled.isValid()) {
            pen.setWidthF(base);
            setPen(pen);
            owner->setProperty("lpScaledWidth", QVariant());
            owner->setProperty("lpBaseWidth", QVariant());
        }
        return;
    }
    const double width = std::max(base, minimumBase) * scale;
    owner->setProperty("lpBaseWidth", base);
    owner->setProperty("lpScaledWidth", width);
    if (!qFuzzyCompare(pen.widthF(), width)) {
        pen.setWidthF(width);
        setPen(pen);
    }
}

// `font` at `factor` times its size, in the unit it was given in.
QFont scaledFont(QFont font, double factor) {
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * factor);
    else
        font.setPixelSize(static_cast<int>(font.pixelSize() * factor + 0.5));
    return font;
}

// The tab bar's type against the normal font: eight tabs whole on a 1280-pixel projector beside the panels.
constexpr double kTabBarFontScale = 0.8;

} // namespace

PresentationOptions PresentationOptions::fromResources() {
    PresentationOptions o;
    const QJsonObject root =
        QJsonDocument::fromJson(TeachingTexts::resource(QStringLiteral(":/teaching/presentation.json")))
            .object();
    if (root.isEmpty())
        return o;
    o.fontScale = std::clamp(root.value(QStringLiteral("font_scale")).toDouble(o.fontScale), 1.0, 4.0);
    o.lineScale = std::clamp(root.value(QStringLiteral("line_scale")).toDouble(o.lineScale), 1.0, 6.0);
    o.highContrast = root.value(QStringLiteral("high_contrast")).toBool(o.highContrast);
    o.fullScreen = root.value(QStringLiteral("full_screen")).toBool(o.fullScreen);
    o.hideAdvanced = root.value(QStringLiteral("hide_advanced")).toBool(o.hideAdvanced);
    for (const QJsonValue& v : root.value(QStringLiteral("advanced")).toArray())
        o.advanced << v.toString();
    return o;
}

QPalette highContrastPalette() {
    QPalette p;
    const QColor black(0, 0, 0);
    const QColor white(255, 255, 255);
    const QColor accent(0, 51, 160); // deep blue
    for (QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive}) {
        p.setColor(g, QPalette::Window, white);
        p.setColor(g, QPalette::WindowText, black);
        p.setColor(g, QPalette::Base, white);
        p.setColor(g, QPalette::AlternateBase, QColor(236, 236, 236));
        p.setColor(g, QPalette::Text, black);
        p.setColor(g, QPalette::Button, QColor(228, 228, 228));
        p.setColor(g, QPalette::ButtonText, black);
        p.setColor(g, QPalette::BrightText, white);
        p.setColor(g, QPalette::Highlight, accent);
        p.setColor(g, QPalette::HighlightedText, white);
        p.setColor(g, QPalette::ToolTipBase, QColor(255, 255, 220));
        p.setColor(g, QPalette::ToolTipText, black);
        p.setColor(g, QPalette::Link, accent);
        p.setColor(g, QPalette::LinkVisited, QColor(90, 0, 140));
        p.setColor(g, QPalette::PlaceholderText, QColor(60, 60, 60));
        p.setColor(g, QPalette::Mid, QColor(110, 110, 110));
        p.setColor(g, QPalette::Dark, QColor(60, 60, 60));
        p.setColor(g, QPalette::Shadow, black);
    }
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(90, 90, 90));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(90, 90, 90));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(90, 90, 90));
    p.setColor(QPalette::Disabled, QPalette::Window, white);
    p.setColor(QPalette::Disabled, QPalette::Base, QColor(245, 245, 245));
    return p;
}

PresentationMode::PresentationMode(QMainWindow* window, QObject* parent)
    : QObject(parent), m_window(window), m_options(PresentationOptions::fromResources()) {
    setObjectName(QStringLiteral("presentationMode"));
}

PresentationMode::~PresentationMode() {
    // Usually destroyed with the window, whose widgets are already going: restore only what belongs to
    // the application.
    if (m_active)
        restoreApplication();
}

void PresentationMode::restoreApplication() {
    qApp->setProperty(presentation::kActiveProperty, false);
    qApp->setProperty(presentation::kFontScaleProperty, 1.0);
    qApp->setProperty(presentation::kLineScaleProperty, 1.0);
    QApplication::setFont(m_savedFont);
    if (m_options.highContrast)
        QApplication::setPalette(m_savedPalette);
}

QList<QWidget*> PresentationMode::hiddenWidgets() const {
    QList<QWidget*> out;
    for (const QPointer<QWidget>& w : m_hidden)
        if (w)
            out << w;
    return out;
}

void PresentationMode::setActive(bool active) {
    if (active == m_active)
        return;
    m_active = active;
    if (active)
        enter();
    else
        leave();
    emit activeChanged(active);
}

void PresentationMode::enter() {
    saveDockWidths();
    m_savedFont = QApplication::font();
    m_savedPalette = QApplication::palette();
    m_savedState = m_window->windowState();
    qApp->setProperty(presentation::kActiveProperty, true);
    qApp->setProperty(presentation::kFontScaleProperty, m_options.fontScale);
    qApp->setProperty(presentation::kLineScaleProperty, m_options.lineScale);

    QApplication::setFont(scaledFont(m_savedFont, m_options.fontScale));
    settle();
    scaleExplicitFonts(m_options.fontScale);
    // The tabs are for the presenter to find a page, not for the room to read: a little under the normal
    // size, all eight fit a 1280-pixel projector whole.
    if (auto* tabs = m_window->findChild<QTabWidget*>(QStringLiteral("tabs")))
        tabs->tabBar()->setFont(scaledFont(m_savedFont, kTabBarFontScale));
    if (m_options.highContrast) {
        QApplication::setPalette(highContrastPalette());
        settle();
    }

    if (m_options.hideAdvanced) {
        const QList<QLabel*> labels = m_window->findChildren<QLabel*>();
        for (const QString& name : m_options.advanced) {
            for (QWidget* w : m_window->findChildren<QWidget*>(name)) {
                if (w->isHidden())
                    continue;
                w->hide();
                m_hidden.emplace_back(w);
                for (QLabel* label : labels) {
                    if (label->buddy() == w && !label->isHidden()) {
                        label->hide();
                        m_hidden.emplace_back(label);
                    }
                }
            }
        }
    }
    if (m_options.fullScreen)
        m_window->setWindowState(m_savedState | Qt::WindowFullScreen);
    refreshCharts();
}

void PresentationMode::leave() {
    restoreApplication();
    settle();
    scaleExplicitFonts(1.0);
    if (auto* tabs = m_window->findChild<QTabWidget*>(QStringLiteral("tabs")))
        tabs->tabBar()->setFont(QFont()); // the application's again
    for (const QPointer<QWidget>& w : m_hidden)
        if (w)
            w->show();
    m_hidden.clear();
    if (m_options.fullScreen)
        m_window->setWindowState(m_savedState);
    restoreDockWidths();
    refreshCharts();
}

void PresentationMode::saveDockWidths() {
    m_savedDockWidths.clear();
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
        if (dock->isVisible() && !dock->isFloating() &&
            (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea))
            m_savedDockWidths.emplace_back(dock, dock->width());
    }
}

// The side panels as wide as before (the pages between them keep their width, and the tabs stay in view).
void PresentationMode::restoreDockWidths() {
    settle();
    QList<QDockWidget*> docks;
    QList<int> widths;
    for (const auto& [dock, width] : m_savedDockWidths) {
        const Qt::DockWidgetArea area = dock ? m_window->dockWidgetArea(dock) : Qt::NoDockWidgetArea;
        if (dock && dock->isVisible() && !dock->isFloating() &&
            (area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea)) {
            docks << dock;
            widths << width;
        }
    }
    m_savedDockWidths.clear();
    if (!docks.isEmpty())
        m_window->resizeDocks(docks, widths, Qt::Horizontal);
}

// The application posts its font and palette changes to the widgets: deliver them now, so that what
// follows (fonts of their own, chart themes, a screenshot) sees the new look.
void PresentationMode::settle() {
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationFontChange);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationPaletteChange);
}

void PresentationMode::scaleExplicitFonts(double factor) {
    if (factor == 1.0) {
        for (const auto& [widget, font] : m_savedFonts)
            if (widget)
                widget->setFont(font);
        m_savedFonts.clear();
    } else {
        // Widgets that set a size of their own (titles, headlines) do not follow the application font.
        QList<QWidget*> widgets = m_window->findChildren<QWidget*>();
        widgets.prepend(m_window);
        for (QWidget* w : widgets) {
            if (!w->testAttribute(Qt::WA_SetFont))
                continue;
            const QFont own = w->font();
            if (!(own.resolveMask() & QFont::SizeResolved))
                continue;
            m_savedFonts.emplace_back(w, own);
            QFont scaled = own;
            if (own.pointSizeF() > 0)
                scaled.setPointSizeF(own.pointSizeF() * factor);
            else
                scaled.setPixelSize(static_cast<int>(own.pixelSize() * factor + 0.5));
            w->setFont(scaled);
        }
    }
    // Charts take their axis and legend fonts when they re-theme: ask them to.
    for (QChartView* view : m_window->findChildren<QChartView*>()) {
        QEvent styleChange(QEvent::StyleChange);
        if (QWidget* owner = view->parentWidget())
            QCoreApplication::sendEvent(owner, &styleChange);
    }
}

void PresentationMode::refreshCharts() {
    const double scale = m_active ? m_options.lineScale : 1.0;
    for (QChartView* view : m_window->findChildren<QChartView*>()) {
        QChart* chart = view->chart();
        if (!chart)
            continue;
        for (QAbstractSeries* series : chart->series()) {
            if (auto* xy = qobject_cast<QXYSeries*>(series)) {
                scalePen(xy, xy->pen(), scale, 1.0, [xy](const QPen& p) { xy->setPen(p); });
            } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
                for (QBarSet* set : bars->barSets())
                    scalePen(set, set->pen(), scale, 1.0, [set](const QPen& p) { set->setPen(p); });
            }
        }
        for (QAbstractAxis* axis : chart->axes())
            scalePen(axis, axis->linePen(), scale, 1.0, [axis](const QPen& p) { axis->setLinePen(p); });
    }
}

} // namespace lp::ui
