#pragma once
// The model preset list. Closed and too narrow for the whole choice (a 1280-pixel window, presentation
// mode's large font), it shortens the model's name and keeps its size ("Llama-2-70B-class (se… · 69 B"),
// where a QComboBox cuts the text at its edge.
#include <QComboBox>

namespace lp::ui {

class ModelPresetBox : public QComboBox {
    Q_OBJECT
public:
    using QComboBox::QComboBox;

    // The current choice as the closed box shows it.
    QString shownText() const;
    // The width the text has inside the closed box.
    int textWidth() const;

protected:
    void paintEvent(QPaintEvent* event) override;
};

} // namespace lp::ui
