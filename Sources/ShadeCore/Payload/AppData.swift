/// What the app receives on tap (C10): the payload's data objects, merged as the shape says, kept as
/// where they lie in the push's store. Keys are looked up there; the tree is built only when someone
/// reads the whole (the inspector, `Item.data`), so a push the center only counts or groups builds none.
public struct AppData: Sendable, Equatable {
    /// One object of the merge.
    enum Part: Sendable {
        /// The object at this token of the store; `apnsCustom`: without `aps` and the simulator key
        /// (D4: the custom keys beside `aps`).
        case onTape(Int32, apnsCustom: Bool)
        case tree(JSONObject)
    }

    let store: PayloadStore?
    /// `overlay`'s members replace or extend `base`'s (`JSONObject.merging`).
    var base: Part?
    var overlay: Part?

    /// No data (`{}`).
    public init() {
        store = nil
    }

    public init(_ object: JSONObject) {
        store = nil
        base = .tree(object)
    }

    /// The object `value` of `store` as the app receives it (nil: no data).
    init(_ value: PayloadValue?, in store: PayloadStore, apnsCustom: Bool = false) {
        switch value {
        case .view(let view)? where view.isObject:
            self.store = store
            base = .onTape(Int32(view.index), apnsCustom: apnsCustom)
        case .tree(.object(var object))?:
            self.store = nil
            if apnsCustom { object = object.removing(AppData.notCustom) }
            base = .tree(object)
        default:
            self.store = nil
        }
    }

    private init(store: PayloadStore?, base: Part?, overlay: Part?) {
        self.store = store
        self.base = base
        self.overlay = overlay
    }

    /// D4: what stands beside `aps` is the app's; the simulator key never reaches the device.
    static let notCustom: Set<String> = ["aps", ShapeReader.simulatorBundleKey]

    /// `self.merging(other)` as `JSONObject.merging` merges: `other` replaces or extends.
    func merging(_ other: AppData) -> AppData {
        guard other.base != nil else { return self }
        guard base != nil else { return other }
        if overlay == nil, other.overlay == nil, store == nil || other.store == nil || store === other.store {
            return AppData(store: store ?? other.store, base: base, overlay: other.base)
        }
        return AppData(object.merging(other.object))   // more than two objects: made whole
    }

    /// The whole object, as a tree.
    public var object: JSONObject {
        let whole = part(base)
        guard overlay != nil else { return whole }
        return whole.merging(part(overlay))
    }

    private func part(_ part: Part?) -> JSONObject {
        switch part {
        case nil: return JSONObject()
        case .tree(let object)?: return object
        case .onTape(let index, let apnsCustom)?:
            guard let store else { return JSONObject() }
            let object = store.withValue(at: Int(index)) { $0.json.object ?? JSONObject() }
            return apnsCustom ? object.removing(Self.notCustom) : object
        }
    }

    public var isEmpty: Bool { object.isEmpty }

    /// Where its objects lie in `store`, when every one lies there (nil: no data, or a tree): two app
    /// data of one store with the same places are the same data.
    var tapePlaces: TapePlaces? {
        guard store != nil, case .onTape(let base, let baseCustom)? = base else { return nil }
        switch overlay {
        case nil: return TapePlaces(base: base, baseCustom: baseCustom, overlay: -1, overlayCustom: false)
        case .onTape(let overlay, let overlayCustom)?:
            return TapePlaces(base: base, baseCustom: baseCustom, overlay: overlay, overlayCustom: overlayCustom)
        case .tree?: return nil
        }
    }

    struct TapePlaces: Equatable {
        let base: Int32
        let baseCustom: Bool
        let overlay: Int32
        let overlayCustom: Bool
    }

    public static func == (a: AppData, b: AppData) -> Bool { a.object == b.object }

    // MARK: reading keys in place

    /// The merged object, valid inside `body` only: its keys are looked up where they lie.
    func withObject<R>(_ body: (Object) -> R) -> R {
        guard let store else { return body(Object(base: resolve(base, nil), overlay: resolve(overlay, nil))) }
        return store.withRoot { root in body(Object(base: resolve(base, root), overlay: resolve(overlay, root))) }
    }

    private func resolve(_ part: Part?, _ root: JSONView?) -> Object.Layer? {
        switch part {
        case nil: return nil
        case .tree(let object)?: return Object.Layer(value: .tree(.object(object)), apnsCustom: false)
        case .onTape(let index, let apnsCustom)?: return root.map { Object.Layer(value: .view($0.at(Int(index))), apnsCustom: apnsCustom) }
        }
    }

    /// The app's data as lookups see it: the overlay's member, else the base's.
    struct Object {
        struct Layer {
            let value: PayloadValue
            let apnsCustom: Bool

            func member(_ key: String) -> PayloadValue? {
                // Lengths first: every lookup of a custom key would otherwise compare it with both.
                if apnsCustom, (key.utf8.count == 3 && key == "aps")
                    || (key.utf8.count == ShapeReader.simulatorBundleKey.utf8.count && key == ShapeReader.simulatorBundleKey) { return nil }
                return value[key]
            }
        }

        let base: Layer?
        let overlay: Layer?

        subscript(key: String) -> PayloadValue? { overlay?.member(key) ?? base?.member(key) }
        func has(_ key: String) -> Bool { self[key] != nil }
    }
}
