#pragma once
// Presentation mode's scenario panel: its forms put each label above its field, so that every field has
// the panel's whole width and a choice box shows its current text whole in the larger fonts (the panel
// keeps its width: the tab pages keep theirs and never scroll sideways).
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

private:
    void setPresenting(bool presenting);

    MainWindow& m_window;
    std::vector<std::pair<QPointer<QFormLayout>, int>> m_savedWrap; // each form's wrap policy before
};

} // namespace lp::ui
