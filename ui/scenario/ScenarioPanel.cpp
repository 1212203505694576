#include "ui/scenario/ScenarioPanel.h"

#include "ui/scenario/ClusterEditor.h"
#include "ui/scenario/LayoutSliders.h"
#include "ui/scenario/ModelEditor.h"
#include "ui/scenario/ScenarioNameEditor.h"
#include "ui/scenario/TrainingEditor.h"
#include "ui/widgets/WheelGuard.h"

#include <QEvent>
#include <QGroupBox>
#include <QScrollBar>
#include <QVBoxLayout>

namespace lp::ui {
namespace {
QGroupBox* group(const QString& title, QWidget* content, QWidget* parent) {
    auto* box = new QGroupBox(title, parent);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->addWidget(content);
    return box;
}
} // namespace

ScenarioPanel::ScenarioPanel(ScenarioDocument* doc, QWidget* parent)
    : QScrollArea(parent), m_name(new ScenarioNameEditor(doc)), m_model(new ModelEditor(doc)),
      m_cluster(new ClusterEditor(doc)), m_training(new TrainingEditor(doc)),
      m_layout(new LayoutSliders(doc)) {
    setObjectName(QStringLiteral("scenarioPanel"));
    installWheelGuard(); // the wheel scrolls the panel, not the field under the pointer
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* inner = new QWidget(this);
    auto* layout = new QVBoxLayout(inner);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(8);
    layout->addWidget(group(tr("Name and notes"), m_name, inner));
    layout->addWidget(group(tr("Model"), m_model, inner));
    layout->addWidget(group(tr("Cluster"), m_cluster, inner));
    layout->addWidget(group(tr("Training"), m_training, inner));
    layout->addWidget(group(tr("Layout"), m_layout, inner));
    layout->addStretch(1);
    setWidget(inner);
    inner->installEventFilter(this);
}

bool ScenarioPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == widget() && event->type() == QEvent::LayoutRequest)
        updateGeometry();
    return QScrollArea::eventFilter(watched, event);
}

QSize ScenarioPanel::sizeHint() const {
    const QSize inner = widget()->sizeHint();
    return {inner.width() + verticalScrollBar()->sizeHint().width(), inner.height()};
}

QSize ScenarioPanel::minimumSizeHint() const {
    const QSize base = QScrollArea::minimumSizeHint();
    return {widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width(), base.height()};
}

} // namespace lp::ui
