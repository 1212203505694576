#pragma once
// Presentation mode, for projectors: an app-wide font scale (1.6x by default), thick chart lines, a
// high-contrast palette, full screen, and the advanced controls hidden. Everything is applied from
// outside the widgets and undone on leaving; the scales are published for chart code in
// ui/widgets/PresentationStyle.h. Settings come from resources/teaching/presentation.json.
#include <QFont>
#include <QObject>
#include <QPalette>
#include <QPointer>
#include <QStringList>

#include <utility>
#include <vector>

class QDockWidget;
class QMainWindow;
class QWidget;

namespace lp::ui {

struct PresentationOptions {
    double fontScale = 1.6;
    double lineScale = 2.0;
    bool highContrast = true;
    bool fullScreen = true;
    bool hideAdvanced = true;
    QStringList advanced; // objectNames of the controls to hide

    // The options compiled in (":/teaching/presentation.json"), or these defaults.
    static PresentationOptions fromResources();
};

// A light palette with black text and saturated accents: what survives a washed-out projector.
QPalette highContrastPalette();

class PresentationMode : public QObject {
    Q_OBJECT
public:
    explicit PresentationMode(QMainWindow* window, QObject* parent = nullptr);
    ~PresentationMode() override;

    void setOptions(const PresentationOptions& options) { m_options = options; }
    const PresentationOptions& options() const { return m_options; }
    bool isActive() const { return m_active; }

    // The hidden advanced controls (while active).
    QList<QWidget*> hiddenWidgets() const;

public slots:
    void setActive(bool active);
    void toggle() { setActive(!m_active); }
    // Re-applies the thick lines after charts rebuilt their series (connected to planChanged).
    void refreshCharts();

signals:
    void activeChanged(bool active);

private:
    void enter();
    void leave();
    void restoreApplication(); // font, palette and the published scales
    void scaleExplicitFonts(double factor);
    void saveDockWidths();
    void restoreDockWidths();
    static void settle();
    QMainWindow* m_window;
    PresentationOptions m_options;
    bool m_active = false;
    QFont m_savedFont;
    QPalette m_savedPalette;
    Qt::WindowStates m_savedState;
    std::vector<QPointer<QWidget>> m_hidden;
    std::vector<std::pair<QPointer<QWidget>, QFont>> m_savedFonts; // widgets with a font size of their own
    // The side panels' widths before: the larger fonts widen them, and a main window keeps a dock's width.
    std::vector<std::pair<QPointer<QDockWidget>, int>> m_savedDockWidths;
};

} // namespace lp::ui
