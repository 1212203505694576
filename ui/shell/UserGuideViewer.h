#pragma once
// Help > User Guide: docs/user-guide.md rendered from Markdown in a window of its own, its links to the
// other docs/ pages followed in place, with a button that opens the page in the desktop's browser. Its
// pictures (screenshots 1,600 pixels wide) are drawn no wider than the page, which never scrolls sideways.
#include <QDialog>
#include <QStringList>

class QTextBrowser;

namespace lp::ui {

class UserGuideViewer : public QDialog {
    Q_OBJECT
public:
    explicit UserGuideViewer(const QString& guidePath, QWidget* parent = nullptr);

    // Where the guide is looked for, in order: docs/ of a source checkout beside or above the executable or
    // the working folder, then the docs the package installs (<data dir>/doc/layout-planner/docs).
    static QStringList guideCandidates();
    // The first candidate that exists; empty when none does.
    static QString findGuide();

    QTextBrowser* browser() const { return m_browser; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // Every picture of the page at its own size or, where that is wider, at the page's width.
    void fitImages();
    QTextBrowser* m_browser = nullptr;
};

} // namespace lp::ui
