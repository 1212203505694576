#include "app/cli/CliError.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace lp::cli {

CliError badValue(std::string field, std::string reason) {
    CliError e;
    e.field = std::move(field);
    e.reason = std::move(reason);
    return e;
}

CliError failure(std::string field, std::string reason) {
    CliError e = badValue(std::move(field), std::move(reason));
    e.exitCode = kExitFailure;
    return e;
}

CliError fileError(const std::string& file, std::string what, core::InputErrors errors) {
    CliError e;
    e.field = file;
    e.reason = std::move(what);
    e.inputErrors = std::move(errors);
    return e;
}

std::string describeInputError(const std::string& file, const core::InputError& e) {
    std::string out = file;
    const std::string text = e.message();
    if (e.line > 0 && text.find("line " + std::to_string(e.line)) == std::string::npos) {
        out += ": line " + std::to_string(e.line);
        if (e.column > 0)
            out += ", column " + std::to_string(e.column);
    }
    out += ": ";
    out += text;
    return out;
}

std::string CliError::message() const {
    std::string out;
    if (inputErrors.empty()) {
        out = field.empty() ? reason : field + ": " + reason;
        return out;
    }
    if (inputErrors.size() == 1)
        return describeInputError(field, inputErrors.front());
    out = field + ": " + reason + " (" + std::to_string(inputErrors.size()) + " problems)";
    for (const auto& ie : inputErrors)
        out += "\n  " + describeInputError(field, ie);
    return out;
}

int reportError(const CliError& e, bool json) {
    if (json) {
        nlohmann::json err{{"field", e.field}, {"reason", e.reason}, {"message", e.message()}};
        if (!e.inputErrors.empty()) {
            nlohmann::json list = nlohmann::json::array();
            for (const auto& ie : e.inputErrors) {
                nlohmann::json item{{"path", ie.path}, {"reason", ie.reason}, {"message", ie.message()}};
                if (ie.line > 0) {
                    item["line"] = ie.line;
                    item["column"] = ie.column;
                }
                list.push_back(std::move(item));
            }
            err["errors"] = std::move(list);
        }
        std::cout << nlohmann::json{{"error", std::move(err)}}.dump(2) << '\n';
    } else {
        std::cerr << "error: " << e.message() << '\n';
    }
    return e.exitCode;
}

} // namespace lp::cli
