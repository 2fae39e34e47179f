import Foundation

/// `sesame ls`'s table, read back: one row per item (the header dropped),
/// cells split where two or more spaces separate the columns.
enum ListTable {
    struct Row: Equatable {
        var service: String
        var name: String
        var label: String
        var access: String
        var accessibility: String
    }

    static func rows(_ stdout: String) -> [Row] {
        stdout.split(separator: "\n").dropFirst().compactMap { line in
            let cells = line.split(separator: #/ {2,}/#).map(String.init)
            guard cells.count == 5 else { return nil }
            return Row(service: cells[0], name: cells[1], label: cells[2], access: cells[3], accessibility: cells[4])
        }
    }

    /// Whether the table lists `name` in `service` with `access`.
    static func lists(_ stdout: String, service: String, name: String, access: String) -> Bool {
        rows(stdout).contains { $0.service == service && $0.name == name && $0.access == access }
    }
}
