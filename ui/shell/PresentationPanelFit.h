#pragma once
// Presentation mode's scenario panel: its forms put each label above its field, and the panel widens (up to
// a share of the window) so that every choice box shows its whole current text in the larger fonts.
#include <QObject>
#include <QPointer>

#include <utility>
#include <vector>

class QFormLayout;

namespace lp::ui {

class MainWindow;
class PresentationMode;

class PresentationPanelFit : public QObject {
    Q_OBJECT
public:
    PresentationPanelFit(MainWindow& window, PresentationMode& presentation, QObject* parent = nullptr);

    // The scenario panel's width at which every visible choice box shows its current text whole.
    int neededPanelWidth() const;

private:
    void setPresenting(bool presenting);
    void fitSoon();
    void fit();

    MainWindow& m_window;
    PresentationMode& m_presentation;
    std::vector<std::pair<QPointer<QFormLayout>, int>> m_savedWrap; // each form's wrap policy before
    int m_savedDockWidth = -1;
    bool m_pending = false;
};

} // namespace lp::ui
