#include "ui/widgets/ScrollPage.h"

#include "ui/widgets/WheelGuard.h"

#include <QScrollArea>
#include <QVBoxLayout>

namespace lp::ui {

QWidget* scrollingContent(QWidget* page) {
    installWheelGuard();
    auto* outer = new QVBoxLayout(page);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(page);
    scroll->setObjectName(QStringLiteral("pageScroll"));
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(
        true); // as large as the page when it fits; scrolls only below the content's minimum
    auto* content = new QWidget(scroll);
    content->setObjectName(QStringLiteral("pageContent"));
    scroll->setWidget(content);
    // The page's own background shows through, as it did without the scroll area.
    scroll->viewport()->setAutoFillBackground(false);
    content->setAutoFillBackground(false);
    outer->addWidget(scroll);
    return content;
}

} // namespace lp::ui
