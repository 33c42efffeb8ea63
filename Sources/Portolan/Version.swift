public enum PortolanVersion { public static let string = "0.1.0" }
