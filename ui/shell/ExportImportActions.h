#pragma once
// The File menu's exchanges with other tools: Export report (also a tool-bar button), Export launch
// settings, and Import Hugging Face config (also by dropping a config.json on the window).
class QString;

namespace lp::ui {

class MainWindow;

// Adds the entries to the end of `w`'s File menu and the Export button to its tool bar. Once per window.
void installExportImportActions(MainWindow& w);
// Imports a Hugging Face config.json as the scenario's model (one undoable edit). False with a banner
// naming the field and the reason when the file cannot be imported.
bool importHfConfig(MainWindow& w, const QString& path);

} // namespace lp::ui
