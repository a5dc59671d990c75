import ShadeCore

/// `shade completions bash|zsh|fish`: a completion script made from the command table, so every
/// command, option and option value the parser accepts is offered, and nothing else.
enum CompletionsCommand {
    static let shells = ["bash", "zsh", "fish"]

    static let command = Command(
        name: "completions",
        summary: "print a shell completion script (bash, zsh or fish)",
        usage: "shade completions bash|zsh|fish",
        help: """
        Prints a script that completes shade's commands, their options and the values an option takes
        (--platform android|ios|web|all, …), and file names where a command reads files.

        Install it once:
          bash   shade completions bash > ~/.local/share/bash-completion/completions/shade
          zsh    shade completions zsh > ~/.zfunc/_shade   (with fpath+=(~/.zfunc) before compinit in ~/.zshrc)
          fish   shade completions fish > ~/.config/fish/completions/shade.fish

        or for this shell only: source <(shade completions bash)
        """,
        valueOptions: [],
        flags: [],
        run: run,
        operands: .words(shells))

    static func run(_ parsed: ParsedArguments) throws(UsageError) -> Int32 {
        guard parsed.operands.count == 1, let shell = parsed.operands.first else {
            throw UsageError("`shade completions` needs one shell: bash, zsh or fish; e.g. shade completions bash")
        }
        let script: String
        switch shell {
        case "bash": script = CompletionScript.bash(Shade.commands)
        case "zsh": script = CompletionScript.zsh(Shade.commands)
        case "fish": script = CompletionScript.fish(Shade.commands)
        default: throw UsageError("completions \(shell): unknown shell; use bash, zsh or fish")
        }
        print(script, terminator: "")
        return 0
    }
}

/// The three shells' scripts, each a rendering of the same table.
enum CompletionScript {
    static let header = "# shade completions, made by `shade completions` from shade's command table.\n"
    /// What every command takes besides its own options.
    static let common = ["--help"]

    static func bash(_ commands: [Command]) -> String {
        var out = header + "_shade() {\n"
        out += "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
        out += "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        out += "    COMPREPLY=($(compgen -W \(quoted((commands.map(\.name) + ["--help", "--version"]).joined(separator: " "))) -- \"$cur\"))\n"
        out += "    return\n  fi\n"
        out += "  case \"${COMP_WORDS[1]}\" in\n"
        for command in commands {
            out += "    \(command.name))\n"
            if !command.valueOptions.isEmpty {
                out += "      case \"$prev\" in\n"
                for option in command.valueOptions {
                    if let values = command.values(of: option) {
                        out += "        \(option)) COMPREPLY=($(compgen -W \(quoted(values.joined(separator: " "))) -- \"$cur\")); return ;;\n"
                    } else {
                        out += "        \(option)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
                    }
                }
                out += "      esac\n"
            }
            let options = (command.valueOptions + command.flags + common).joined(separator: " ")
            out += "      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \(quoted(options)) -- \"$cur\")); return; fi\n"
            switch command.operands {
            case .none: break
            case .files: out += "      COMPREPLY=($(compgen -f -- \"$cur\"))\n"
            case .words(let words): out += "      COMPREPLY=($(compgen -W \(quoted(words.joined(separator: " "))) -- \"$cur\"))\n"
            }
            out += "      ;;\n"
        }
        out += "  esac\n}\ncomplete -o filenames -F _shade shade\n"
        return out
    }

    static func zsh(_ commands: [Command]) -> String {
        var out = "#compdef shade\n" + header + "_shade() {\n  local -a commands\n  commands=(\n"
        for command in commands {
            out += "    \(quoted(command.name + ":" + command.summary))\n"
        }
        out += "  )\n"
        out += "  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    _arguments '--help' '--version'\n    return\n  fi\n"
        out += "  local command=$words[2]\n  shift words\n  (( CURRENT-- ))\n"
        out += "  case $command in\n"
        for command in commands {
            var specs: [String] = []
            for option in command.valueOptions {
                let name = String(option.dropFirst(2))
                let action = command.values(of: option).map { "(\($0.joined(separator: " ")))" } ?? "_files"
                specs.append("*\(option):\(name):\(action)")
            }
            for flag in command.flags + common { specs.append(flag) }
            switch command.operands {
            case .none: break
            case .files: specs.append("*:file:_files")
            case .words(let words): specs.append("*:value:(\(words.joined(separator: " ")))")
            }
            out += "    \(command.name)) _arguments \(specs.map(quoted).joined(separator: " ")) ;;\n"
        }
        out += "  esac\n}\n"
        out += "if [ \"$funcstack[1]\" = \"_shade\" ]; then _shade \"$@\"; else compdef _shade shade; fi\n"
        return out
    }

    static func fish(_ commands: [Command]) -> String {
        var out = header + "complete -c shade -f\n"
        out += "complete -c shade -n __fish_use_subcommand -l help -d 'show help'\n"
        out += "complete -c shade -n __fish_use_subcommand -l version -d 'show the version'\n"
        for command in commands {
            out += "complete -c shade -n __fish_use_subcommand -a \(command.name) -d \(quoted(command.summary))\n"
        }
        for command in commands {
            let when = "-n \(quoted("__fish_seen_subcommand_from \(command.name)"))"
            for option in command.valueOptions {
                let name = String(option.dropFirst(2))
                if let values = command.values(of: option) {
                    out += "complete -c shade \(when) -l \(name) -x -a \(quoted(values.joined(separator: " ")))\n"
                } else {
                    out += "complete -c shade \(when) -l \(name) -r -F\n"
                }
            }
            for flag in command.flags + common {
                out += "complete -c shade \(when) -l \(flag.dropFirst(2))\n"
            }
            switch command.operands {
            case .none: break
            case .files: out += "complete -c shade \(when) -F\n"
            case .words(let words): out += "complete -c shade \(when) -a \(quoted(words.joined(separator: " ")))\n"
            }
        }
        return out
    }

    /// `text` in single quotes for a shell: a quote inside is closed, escaped and reopened.
    static func quoted(_ text: String) -> String {
        var out = "'"
        for character in text {
            if character == "'" { out += "'\\''" } else { out.append(character) }
        }
        return out + "'"
    }
}
