#pragma once
// Installs the layout explorer's tabs in the main window: Explore (search, ranked table, Pareto
// scatter), One axis (one-axis-at-a-time sweeps) and Compare (pinned layouts side by side), and wires
// them to the document, the memory unit setting and each other (Explore's Pin -> Compare).
// Call once, from MainWindow's constructor, after the Plan tab exists:
//     installExploreTabs(*this, *m_doc);
namespace lp::ui {

class MainWindow;
class ScenarioDocument;

// Each tab replaces a placeholder page of the same title when there is one ("&Explore",
// "&Compare"), otherwise it is added with MainWindow::addTab. "One a&xis" goes right after Explore.
void installExploreTabs(MainWindow& w, ScenarioDocument& doc);

} // namespace lp::ui
