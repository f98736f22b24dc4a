/// The tool's name and version, as reports and `--version` print them.
public enum ToolInfo {
    public static let name = "medialint"
    public static let version = "0.1.0"
}
