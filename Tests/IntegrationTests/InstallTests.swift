import Foundation
import SegueClient
import SegueJSON
import Testing

/// scripts/install in a temporary prefix and config home, with the binaries of this build (no release build).
@Suite("scripts/install")
struct InstallTests {
    @Test("""
        installs binaries, units, completions, config and plugins where the XDG defaults find them; --uninstall \
        removes exactly that
        """)
    func installAndUninstall() throws {
        let root = try TemporaryFolder()
        let prefix = root.path + "/prefix"
        let config = root.path + "/cfg/segued"
        // The user's own config is there already: never overwritten, never removed.
        try root.write("# mine\n[engine]\nfps = 30\n", to: "cfg/segued/segued.toml")
        let environment = ["HOME": root.path + "/home", "XDG_CONFIG_HOME": root.path + "/cfg"]
        let install = try runCommand("/bin/bash", [repositoryRoot + "/scripts/install", "--prefix", prefix,
                                                   "--binaries", binaryDirectory], environment: environment)
        #expect(install.status == 0, "\(install.err)")
        #expect(install.out.contains("kept \(config)/segued.toml (already there)"))
        let files = [
            "bin/segued", "bin/seguectl", "bin/segue-studio", "share/systemd/user/segued.service", "share/systemd/user/segued.socket",
            "share/bash-completion/completions/seguectl", "share/zsh/site-functions/_seguectl",
            "share/fish/vendor_completions.d/seguectl.fish", "share/segued/install-manifest",
            "share/man/man8/segued.8", "share/man/man1/seguectl.1", "share/man/man5/segued.toml.5",
        ]
        for file in files { #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file)") }
        #expect(try String(contentsOfFile: config + "/segued.toml", encoding: .utf8) == "# mine\n[engine]\nfps = 30\n")
        let service = try String(contentsOfFile: prefix + "/share/systemd/user/segued.service", encoding: .utf8)
        #expect(service.contains("\nExecStart=\(prefix)/bin/segued\n"))
        #expect(service.contains("\nType=notify\n") && service.contains("\nWatchdogSec="))
        // systemd does not look in this prefix: the hint links the units rather than enabling a name it cannot find.
        #expect(install.out.contains("systemctl --user link \(prefix)/share/systemd/user/segued.service"), "\(install.out)")
        #expect(!install.out.contains("daemon-reload && systemctl --user enable"), "\(install.out)")
        for file in ["share/bash-completion/completions/seguectl", "share/zsh/site-functions/_seguectl",
                     "share/fish/vendor_completions.d/seguectl.fish"]
        {
            let text = try String(contentsOfFile: prefix + "/" + file, encoding: .utf8)
            #expect(text.contains("seguectl") && text.contains("filmstrip"), "\(file)")
        }
        let bundled = try FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/plugins")
            .filter { $0.hasSuffix(".lua") }.sorted()
        #expect(try FileManager.default.contentsOfDirectory(atPath: config + "/plugins").sorted()
                == (bundled + [".luarc.json", "types"]).sorted())
        // The editor definitions come along, for editing the installed plugins with LuaLS.
        #expect(FileManager.default.contentsEqual(atPath: config + "/plugins/types/segue.lua",
                                                  andPath: repositoryRoot + "/plugins/types/segue.lua"))

        // The installed daemon, with no flags, finds the user's config and the installed plugins.
        try root.makeFolder("run")
        let runtime = environment.merging(["XDG_RUNTIME_DIR": root.path + "/run"]) { $1 }
        let daemon = try ServiceProcess(arguments: [], environment: runtime, logFile: root.path + "/log")
        try daemon.waitForSocket(root.path + "/run/segued.sock")
        let client = try SegueClient(socketPath: root.path + "/run/segued.sock")
        #expect(try client.call("plugins.list").arrayValue?.contains { $0["name"] == "dt-slide" } == true)
        #expect(daemon.terminate() == 0)

        // A plugin the user changed after installing is kept by --uninstall; everything else goes.
        try "-- changed\n".write(toFile: config + "/plugins/flip.lua", atomically: true, encoding: .utf8)
        let script = repositoryRoot + "/scripts/install"
        let uninstall = try runCommand("/bin/bash", [script, "--prefix", prefix, "--uninstall"],
                                       environment: environment)
        #expect(uninstall.status == 0, "\(uninstall.err)")
        #expect(uninstall.out.contains("kept \(config)/plugins/flip.lua (changed since it was installed)"))
        #expect(!FileManager.default.fileExists(atPath: prefix))
        #expect(try FileManager.default.contentsOfDirectory(atPath: config + "/plugins") == ["flip.lua"])
        #expect(FileManager.default.fileExists(atPath: config + "/segued.toml"))
        let again = try runCommand("/bin/bash", [script, "--prefix", prefix, "--uninstall"], environment: environment)
        #expect(again.status == 1 && again.err.contains("nothing to uninstall"))
    }

    @Test("a relative --prefix is relative to where the command is run, not to the repository")
    func relativePrefix() throws {
        let root = try TemporaryFolder()
        let environment = ["HOME": root.path + "/home", "XDG_CONFIG_HOME": root.path + "/cfg"]
        let script = repositoryRoot + "/scripts/install"
        let install = try runCommand("/bin/bash", ["-c", "cd \"$1\" && exec /bin/bash \"$2\" --prefix rel --binaries \"$3\"",
                                                   "install", root.path, script, binaryDirectory],
                                     environment: environment)
        #expect(install.status == 0, "\(install.err)")
        #expect(FileManager.default.isExecutableFile(atPath: root.path + "/rel/bin/segued"))
        #expect(!FileManager.default.fileExists(atPath: repositoryRoot + "/rel"))
        let uninstall = try runCommand("/bin/bash", [script, "--prefix", root.path + "/rel", "--uninstall"],
                                       environment: environment)
        #expect(uninstall.status == 0, "\(uninstall.err)")
        #expect(!FileManager.default.fileExists(atPath: root.path + "/rel"))
    }

    static let analyze = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("the units pass systemd-analyze verify", .enabled(if: analyze != nil, "systemd-analyze is not installed"))
    func unitsVerify() throws {
        let root = try TemporaryFolder()
        let service = try String(contentsOfFile: repositoryRoot + "/config/segued.service", encoding: .utf8)
            .replacingOccurrences(of: "%h/.local/bin/segued", with: binaryDirectory + "/segued")
        try root.write(service, to: "segued.service")
        let socket = try String(contentsOfFile: repositoryRoot + "/config/segued.socket", encoding: .utf8)
        try root.write(socket, to: "segued.socket")
        let result = try runCommand(InstallTests.analyze ?? "", ["--user", "verify", root.path + "/segued.service",
                                                                 root.path + "/segued.socket"],
                                    environment: ["XDG_RUNTIME_DIR": root.path])
        // An unknown key is only a warning (status 0): nothing at all may be printed.
        #expect(result.status == 0 && result.out.isEmpty && result.err.isEmpty, "\(result.out)\(result.err)")
    }

    @Test("""
        a prefix with a space, an & and a % still gives a unit whose ExecStart is the installed segued (quoted for \
        systemd, the % escaped)
        """, .enabled(if: analyze != nil, "systemd-analyze is not installed"))
    func oddPrefix() throws {
        let root = try TemporaryFolder()
        let prefix = root.path + "/my pre&fix 100%$x"
        let environment = ["HOME": root.path + "/home", "XDG_CONFIG_HOME": root.path + "/cfg"]
        let install = try runCommand("/bin/bash", [repositoryRoot + "/scripts/install", "--prefix", prefix,
                                                   "--binaries", binaryDirectory], environment: environment)
        #expect(install.status == 0, "\(install.err)")
        let unit = prefix + "/share/systemd/user/segued.service"
        let service = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(service.contains("\nExecStart=\"\(root.path)/my pre&fix 100%%$x/bin/segued\"\n"), "\(service)")
        let socket = prefix + "/share/systemd/user/segued.socket"
        let result = try runCommand(InstallTests.analyze ?? "", ["--user", "verify", unit, socket],
                                    environment: ["XDG_RUNTIME_DIR": root.path])
        #expect(result.status == 0 && result.out.isEmpty && result.err.isEmpty, "\(result.out)\(result.err)")
    }

    @Test("in a prefix systemd looks in (~/.local), the hint enables the socket unit by name")
    func hintForDefaultPrefix() throws {
        let root = try TemporaryFolder()
        let home = root.path + "/home"
        let environment = ["HOME": home, "XDG_CONFIG_HOME": root.path + "/cfg", "XDG_DATA_HOME": home + "/.local/share"]
        let install = try runCommand("/bin/bash", [repositoryRoot + "/scripts/install", "--prefix", home + "/.local",
                                                   "--binaries", binaryDirectory], environment: environment)
        #expect(install.status == 0, "\(install.err)")
        #expect(install.out.contains("systemctl --user daemon-reload && systemctl --user enable --now segued.socket"),
                "\(install.out)")
        #expect(!install.out.contains("systemctl --user link"), "\(install.out)")
    }

    @Test("--help prints the usage, what goes where and every option")
    func help() throws {
        let result = try runCommand("/bin/bash", [repositoryRoot + "/scripts/install", "--help"])
        #expect(result.status == 0)
        for text in ["Usage: scripts/install", "--prefix DIR", "--uninstall", "--binaries DIR", "share/man/man8/segued.8",
                     "systemctl --user link"] {
            #expect(result.out.contains(text), "\(text)")
        }
        #expect(!result.out.contains("set -euo"), "the help is not the script's own code")
    }
}
