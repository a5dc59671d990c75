/// ISO 8601 timestamps of envelopes (`2026-11-30T10:15:00.120Z`), parsed and written without
/// Foundation: replay reads one per line of a recording.
public enum Timestamp {
    public static func millis(fromISO8601 text: String) -> Int64? {
        let b = Array(text.utf8)
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var v = 0
            for i in start..<(start + count) {
                let d = Int(b[i]) - 48
                guard d >= 0 && d <= 9 else { return nil }
                v = v * 10 + d
            }
            return v
        }
        guard b.count >= 19, let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2),
              b[7] == UInt8(ascii: "-"), let day = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
              let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
              b[16] == UInt8(ascii: ":"), let second = digits(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var i = 19
        var millis = 0
        if i < b.count && (b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",")) {
            i += 1
            var scale = 100
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                millis += (Int(b[i]) - 48) * scale
                scale /= 10
                i += 1
            }
        }
        var offsetSeconds = 0
        if i < b.count {
            if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
                i += 1
            } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
                let sign = b[i] == UInt8(ascii: "+") ? 1 : -1
                guard let oh = digits(i + 1, 2) else { return nil }
                var j = i + 3
                if j < b.count && b[j] == UInt8(ascii: ":") { j += 1 }
                guard let om = digits(j, 2) else { return nil }
                offsetSeconds = sign * (oh * 3600 + om * 60)
                i = j + 2
            } else {
                return nil
            }
        }
        guard i == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        return seconds * 1000 + Int64(millis)
    }

    public static func iso8601(millis: Int64) -> String {
        let totalSeconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let ms = Int(millis - totalSeconds * 1000)
        var days = Int(totalSeconds >= 0 ? totalSeconds / 86_400 : (totalSeconds - 86_399) / 86_400)
        let secondsOfDay = Int(totalSeconds - Int64(days) * 86_400)
        let (y, m, d) = civilFromDays(days)
        days = 0
        func pad(_ v: Int, _ n: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, n - s.count)) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondsOfDay / 3600, 2)):\(pad(secondsOfDay / 60 % 60, 2)):\(pad(secondsOfDay % 60, 2)).\(pad(ms, 3))Z"
    }

    /// Hours and minutes (UTC) for item times on screen.
    public static func clockTime(millis: Int64) -> String {
        let iso = iso8601(millis: millis)
        let start = iso.index(iso.startIndex, offsetBy: 11)
        return String(iso[start..<iso.index(start, offsetBy: 5)])
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp + (mp < 10 ? 3 : -9)
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
