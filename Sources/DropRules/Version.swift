/// The version of droprules: what `droprules --version` prints. It is written here only;
/// a test checks that CHANGELOG.md names it.
public enum DropRulesVersion {
  /// The version, as `MAJOR.MINOR.PATCH`.
  public static let current = "0.2.0"
}
