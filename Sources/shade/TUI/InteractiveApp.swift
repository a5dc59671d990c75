@preconcurrency import Glibc
import ShadeCore
import ShadeIO
import ShadeTerminal
import ShadeUI

/// The live terminal UI over a `LiveSession`: one thread, one poll loop (DESIGN.md "Run loop").
/// Pushes are applied as they arrive; the screen is drawn at most ~30 times a second, and only
/// when something changed. Returns nil when there is no usable terminal (the caller runs headless).
final class InteractiveApp {
    static let frameMillis: Int64 = 40
    /// Pushes and clocks are drawn at most every 40 ms (25 frames a second), leaving room in
    /// the 30 a second for a key, which is drawn at once unless 30 frames began within the last second.
    static let frameGapMicros: Int64 = 40_000
    static let framesPerSecond = 30

    let session: LiveSession
    let terminal = Terminal()
    let title: String
    let recording: String?
    let tables: StringTables
    var model: InteractiveModel
    var quit = false
    var dirty = true
    var lastChange = -1
    var lastDrawMicros: Int64 = 0
    /// When the last frames began (at most `framesPerSecond`): a frame may begin only when fewer than
    /// 30 began within the second before it.
    var recentDraws: [Int64] = []
    /// A key was read and its frame is not drawn yet.
    var keyWaiting = false
    /// A draw put off because the last frame was too recent: it comes when the gap is over.
    var catchUp: PollLoop.TimerToken?
    var catchUpAt: Int64 = 0
    var seenRejections = 0
    var lastReplaySecond: Int64 = -1
    var lastReplayPosition = -1
    /// Where the pushes had gone when last drawn: a push that went only to platforms not shown
    /// gets a hint naming them.
    var lastTally = ElsewhereTally()
    let clock = SystemClock()
    /// `--stats`: frames, pushes and key latency from the loop's timestamps.
    let stats: SessionStats?
    private var countedPushes = 0

    /// How the user runs shade, for hints that name a command.
    let command = Invocation.command

    init(session: LiveSession, title: String, platforms: [Platform], recording: String?, tables: StringTables, emptyHint: String?,
         localTime: LocalTime, stats: SessionStats? = nil) {
        self.session = session
        self.stats = stats
        self.title = title
        self.recording = recording
        self.tables = tables
        var view = ViewState(platforms: platforms, localTime: localTime)
        view.emptyHint = emptyHint
        self.model = InteractiveModel(view: view)
    }

    /// Runs until the user quits. nil: the terminal could not start (say why, go headless).
    func run(noColor: Bool, onStart: () -> Void = {}) -> Int32? {
        do {
            try terminal.start(colorMode: noColor ? .none : .auto)
        } catch {
            Console.error("shade: \(error) — running headless")
            return nil
        }
        onStart()
        let input = session.loop.watch(0) { [weak self] _ in self?.readKeys() }
        // The wake pipe: a termination signal, or a resize (read as a key).
        let wake = session.loop.watch(terminal.wakeDescriptor) { [weak self] _ in self?.wakeUp() }
        let frame = session.loop.schedule(after: Self.frameMillis, repeatingEvery: Self.frameMillis) { [weak self] in self?.drawIfNeeded() }
        var status: Int32 = 0
        drawIfNeeded()
        while !quit {
            _ = session.loop.runOnce(timeout: 250)
            if let stats {
                let taken = session.acceptedCount + session.refusedCount
                stats.pushesTaken(taken - countedPushes, at: session.loop.pollReturnedMicros)
                countedPushes = taken
            }
            wakeUp()
        }
        if let signo = caughtSignal { status = SignalWatch.exitStatus(for: signo) }
        session.loop.unwatch(input)
        session.loop.unwatch(wake)
        session.loop.cancel(frame)
        if let catchUp { session.loop.cancel(catchUp) }
        terminal.stop()
        session.shutdown()
        return status
    }

    var caughtSignal: Int32?

    func wakeUp() {
        if let signo = terminal.takePendingSignal() {
            caughtSignal = signo
            quit = true
            return
        }
        readKeys()
    }

    func readKeys() {
        let keys = terminal.readKeys()
        let typed = keys.count { $0 != .resize }
        stats?.keysRead(typed, since: session.loop.readySinceMicros)
        if typed > 0 { keyWaiting = true }
        for key in keys {
            guard let uiKey = Self.uiKey(key) else { continue }
            if uiKey == .resize { dirty = true; continue }
            let states = session.states(model.view.platforms)
            let body = InteractiveScreen.bodyRect(columns: terminal.size.columns, rows: terminal.size.rows, chrome: chrome())
            let items = ShadeView.selectableItems(states, view: model.view)
            model.keepSelection(in: items)
            let context = KeyContext(items: items, isReplaying: session.replay != nil, pageSize: body.rows)
            for effect in KeyReducer.handle(uiKey, model: &model, context: context) { perform(effect) }
            let size = terminal.size
            model.helpScroll = min(model.helpScroll, InteractiveScreen.helpScrollLimit(columns: size.columns, rows: size.rows, chrome: chrome()))
            dirty = true
        }
        drawIfNeeded()
    }

    func perform(_ effect: UIEffect) {
        switch effect {
        case .quit: quit = true
        case .dismiss(let id, let platforms): for p in platforms { session.dismiss(itemID: id, on: p) }
        case .clearAll: session.clearAll()
        case .togglePause: session.replay.map { $0.isPaused ? $0.resume() : $0.pause() }
        case .step: session.replay?.step()
        case .faster: session.replay?.faster()
        case .slower: session.replay?.slower()
        case .seek(let seconds): session.replay?.seek(by: Double(seconds))
        case .toggleOffline(let platforms): session.toggleOffline(platforms)
        }
    }

    func chrome() -> Chrome {
        var replayStatus: ReplayStatus?
        if let r = session.replay {
            replayStatus = ReplayStatus(position: r.position, count: r.count, elapsedMillis: r.elapsedMillis, totalMillis: r.totalMillis,
                                        speed: r.speed, paused: r.isPaused, finished: r.isFinished,
                                        restartInMillis: r.restartAt.map { $0 - session.clock.nowMillis() })
        }
        return Chrome(title: title, recording: recording, replay: replayStatus, now: clock.nowMillis(),
                      network: session.tcpPort == nil ? nil : session.networkStatus, command: command)
    }

    func drawIfNeeded() {
        let now = clock.nowMillis()
        if session.rejectionCount > seenRejections {
            if let last = session.recentRejections.last {
                model.show(message: "✗ rejected \(last.source): \(last.reason)", now: now)
            }
            seenRejections = session.rejectionCount
            dirty = true
        }
        let tally = session.elsewhereTally
        if let hint = ElsewhereHint.text(before: lastTally, after: tally, shown: model.view.platforms),
           model.message == nil || model.messageTone == .hint {
            model.show(message: hint, tone: .hint, now: now)
            dirty = true
        }
        lastTally = tally
        if model.message != nil && now >= model.messageUntil { model.message = nil; dirty = true }
        // The progress bar moves: redraw when its clock shows another second, not every frame.
        if let replay = session.replay {
            let second = replay.elapsedMillis / 1000
            if second != lastReplaySecond || replay.position != lastReplayPosition { dirty = true }
            lastReplaySecond = second
            lastReplayPosition = replay.position
        }
        guard dirty || session.changeCount != lastChange else { return }
        // At most 30 frames in any second. A key is drawn at once; other changes (pushes, clocks) wait
        // for the gap after the last frame. What must wait is drawn by a one-shot timer when it may.
        let started = PollLoop.monotonicMicros()
        let windowFree = recentDraws.count < Self.framesPerSecond ? 0 : recentDraws[recentDraws.count - Self.framesPerSecond] + 1_000_001
        let earliest = keyWaiting ? windowFree : max(windowFree, lastDrawMicros + Self.frameGapMicros)
        guard started >= earliest else {
            // A key may come while a later draw is put off: it is drawn at its own, earlier time.
            if let pending = catchUp, catchUpAt > earliest {
                session.loop.cancel(pending)
                catchUp = nil
            }
            if catchUp == nil {
                catchUpAt = earliest
                // The timers count whole milliseconds of a clock that truncates: one more, not one too few.
                catchUp = session.loop.schedule(after: (earliest - started + 999) / 1000 + 1) { [weak self] in
                    self?.catchUp = nil
                    self?.drawIfNeeded()
                }
            }
            return
        }
        let size = terminal.size
        let states = session.states(model.view.platforms)
        let chrome = chrome()
        model.keepSelection(in: ShadeView.selectableItems(states, view: model.view))
        keepSelectionVisible(states, body: InteractiveScreen.bodyRect(columns: size.columns, rows: size.rows, chrome: chrome))
        let screen = InteractiveScreen.compose(states, model: model, chrome: chrome, columns: size.columns, rows: size.rows,
                                               diagnostics: { [tables] item, platform in Self.diagnostics(item, platform, tables) })
        terminal.present(screen)
        stats?.frameDrawn(startedAt: started, endedAt: PollLoop.monotonicMicros())
        lastChange = session.changeCount
        lastDrawMicros = started
        recentDraws.append(started)
        if recentDraws.count > Self.framesPerSecond { recentDraws.removeFirst() }
        keyWaiting = false
        dirty = false
    }

    /// Scrolls a single-platform list so the selected item is on screen.
    func keepSelectionVisible(_ states: [CenterState], body: Rect) {
        guard states.count == 1, let state = states.first, let selected = model.view.selection else {
            if states.count != 1 { model.view.scroll = 0 }
            return
        }
        let order = state.items.map(\.id)
        let index = order.firstIndex(of: selected) ?? order.firstIndex { id in
            state.items.first { $0.id == id }?.children?.contains { $0.id == selected } ?? false
        }
        guard let index else { return }
        if index < model.view.scroll { model.view.scroll = index; return }
        for _ in 0..<order.count {
            let ranges = ShadeView.itemRowRanges(state, view: model.view, rect: body)
            if let range = ranges.first(where: { $0.id == selected }), range.rows.upperBound <= body.row + body.rows { return }
            if ranges.contains(where: { $0.id == selected }) && model.view.scroll == index { return }
            guard model.view.scroll < index else { return }
            model.view.scroll += 1
        }
    }

    static func diagnostics(_ item: Item, _ platform: Platform, _ tables: StringTables) -> [String] {
        guard let push = item.newest else { return [] }
        return Lint.check(push, platforms: [platform], tables: tables).map { d in
            "\(d.severity) [\(d.rule)] \(d.path): \(d.message)"
        }
    }

    static func uiKey(_ key: Key) -> UIKey? {
        switch key {
        case .character(let c): return .character(c)
        case .up: return .up
        case .down: return .down
        case .left: return .escape
        case .right: return .enter
        case .pageUp: return .pageUp
        case .pageDown: return .pageDown
        case .home: return .home
        case .end: return .end
        case .enter: return .enter
        case .escape: return .escape
        case .backspace, .delete: return .backspace
        case .tab: return .tab
        case .controlC: return .controlC
        case .resize: return .resize
        case .mouseWheelUp: return .wheelUp
        case .mouseWheelDown: return .wheelDown
        case .mouseClick(let column, let row): return .click(column: column, row: row)
        case .control("l"): return .resize
        default: return nil
        }
    }
}

/// The terminal UI for a session, or nil when no terminal could be started (the caller goes headless).
func runInteractive(session: LiveSession, title: String, options: ProfileOptions, texts: TextResolver,
                    recording: String? = nil, emptyHint: String? = nil, localTime: LocalTime, noColor: Bool,
                    stats: SessionStats? = nil, onStart: () -> Void = {}) -> Int32? {
    InteractiveApp(session: session, title: title, platforms: options.platforms, recording: recording, tables: texts.tables,
                   emptyHint: emptyHint, localTime: localTime, stats: stats)
        .run(noColor: noColor, onStart: onStart)
}
