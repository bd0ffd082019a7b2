//! Reading an instance's JSON text within its memory (SPEC §3): the top
//! level is walked with serde's visitors, so that the two lists that can
//! be long — `packets` and a sort's `keys` — are read item by item into
//! compact columns, never into a JSON tree, and past the packet limit are
//! counted, not kept. [`super::instance`] then checks what was read, field
//! by field.

use crate::error::{Error, Result};
use serde_json::{Number, Value};

/// Bytes of memory reading and parsing an instance may take per byte of its
/// text: the text itself (1); a key read as a JSON number, 16 bytes for at
/// least 2 bytes of text (`0,`), a quarter more while its list grows
/// ([`grow`]: 10), its 8-byte code beside it once the list is whole and
/// matches the packets (which take 6 more bytes of text per key, so less
/// per byte than the list alone); a packet's pair of 64-bit ids, 16 bytes
/// for at least 6 (`[0,0],`), then its 8-byte pair (under 5). Where an
/// allocator copies a growing list, its old and new blocks are briefly
/// held together; where memory runs out the reading ends in a message
/// ([`OUT_OF_MEMORY`]), never an abort. The CLI refuses text its memory
/// limit cannot read at this rate before reading it; the page's text limit
/// times this stays inside its budget (a test checks it).
pub const READ_BYTES_PER_TEXT_BYTE: u64 = 13;

/// A list field as read. A list is kept as its items' compact form
/// (a packet's pair, a key's number: 16 bytes where a JSON tree costs
/// about 150 a packet, 32 a key): its items are read one at a time, and
/// reading stops keeping them at the first item that has not the item's
/// form (`bad`, kept whole for its message) or once there are more than
/// the limit allows (`count` goes on: the message gives it).
pub(super) enum ListField<T> {
    List {
        items: Vec<T>,
        bad: Option<(usize, Value)>,
        count: u64,
    },
    /// Not an array: kept for its message.
    Other(Value),
}

/// The start of the message of a list that memory could not hold.
const OUT_OF_MEMORY: &str = "out of memory reading";

/// Room for more items of a list being read: a quarter more (not twice as
/// many, so that a list's spare room stays within [`READ_BYTES_PER_TEXT_BYTE`]),
/// else a sixteenth; false where neither can be had, so that the reading
/// ends in a message and not in the allocator's abort.
fn grow<T>(items: &mut Vec<T>) -> bool {
    let len = items.len();
    crate::error::fallibly(|| {
        items.try_reserve_exact(len / 4 + 64).is_ok() || items.try_reserve_exact(len / 16 + 1).is_ok()
    })
}

/// A packet as a list item: a pair of non-negative integers.
pub(super) fn pair(item: &Value) -> Option<[u64; 2]> {
    match item.as_array().map(Vec::as_slice) {
        Some([a, b]) => a.as_u64().zip(b.as_u64()).map(|(a, b)| [a, b]),
        _ => None,
    }
}

/// A key as a list item: a number.
pub(super) fn number(item: &Value) -> Option<Number> {
    match item {
        Value::Number(n) => Some(n.clone()),
        _ => None,
    }
}

/// The instance's top level as read: the other fields as JSON values
/// (an unknown field's value as `null`: it is read past, whatever its
/// size), `packets` and `keys` apart.
pub(super) struct TopLevel {
    pub fields: serde_json::Map<String, Value>,
    pub packets: Option<ListField<[u64; 2]>>,
    pub keys: Option<ListField<Number>>,
}

/// The fields of SPEC §3's instance JSON (`keys`: a sort's, SPEC §5).
pub const KNOWN_FIELDS: [&str; 6] = ["topology", "packets", "name", "l", "k", "keys"];

/// The fields read item by item.
const LISTS: [&str; 2] = ["packets", "keys"];

/// Reads the top-level object, the values of [`KNOWN_FIELDS`] kept; a
/// field named twice is refused by name (`serde_json`'s map would keep the
/// last silently).
pub(super) fn top_level(text: &str, max_packets: u64) -> Result<TopLevel> {
    use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde::Deserialize;
    struct Collect(u64);
    struct Fields(
        Vec<(String, Value)>,
        Option<ListField<[u64; 2]>>,
        Option<ListField<Number>>,
    );
    /// A list's items read by `item` into `T`, at most `max` kept.
    struct List<T> {
        name: &'static str,
        max: u64,
        item: fn(&Value) -> Option<T>,
    }
    impl<T> List<T> {
        fn new(name: &'static str, max: u64, item: fn(&Value) -> Option<T>) -> Self {
            List { name, max, item }
        }
    }
    impl<'de, T> DeserializeSeed<'de> for List<T> {
        type Value = ListField<T>;
        fn deserialize<D: Deserializer<'de>>(self, de: D) -> std::result::Result<ListField<T>, D::Error> {
            de.deserialize_any(self)
        }
    }
    macro_rules! other {
        ($($visit:ident: $t:ty),*) => {$(
            fn $visit<E: serde::de::Error>(self, v: $t) -> std::result::Result<ListField<T>, E> {
                Ok(ListField::Other(Value::from(v)))
            }
        )*};
    }
    impl<'de, T> Visitor<'de> for List<T> {
        type Value = ListField<T>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON value")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<ListField<T>, A::Error> {
            let (mut items, mut bad, mut count) = (Vec::new(), None, 0u64);
            loop {
                let keep = bad.is_none() && count < self.max;
                if !keep {
                    if seq.next_element::<IgnoredAny>()?.is_none() {
                        break;
                    }
                } else if let Some(value) = seq.next_element::<Value>()? {
                    match (self.item)(&value) {
                        Some(x) => {
                            if items.len() == items.capacity() && !grow(&mut items) {
                                return Err(serde::de::Error::custom(format!(
                                    "{OUT_OF_MEMORY} {}: {} items kept, {} bytes each",
                                    self.name,
                                    items.len(),
                                    std::mem::size_of::<T>()
                                )));
                            }
                            items.push(x);
                        }
                        None => bad = Some((count as usize, value)),
                    }
                } else {
                    break;
                }
                count += 1;
            }
            if count > self.max {
                items = Vec::new();
            }
            Ok(ListField::List { items, bad, count })
        }
        // Anything but an array is kept whole, for its message.
        other!(visit_str: &str, visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64);
        fn visit_unit<E: serde::de::Error>(self) -> std::result::Result<ListField<T>, E> {
            Ok(ListField::Other(Value::Null))
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> std::result::Result<ListField<T>, A::Error> {
            let value = Value::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
            Ok(ListField::Other(value))
        }
    }
    impl<'de> Visitor<'de> for Collect {
        type Value = Fields;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Fields, A::Error> {
            let (mut out, mut packets, mut keys) = (Vec::new(), None, None);
            while let Some(key) = map.next_key::<String>()? {
                match key.as_str() {
                    "packets" if packets.is_none() => {
                        packets = Some(map.next_value_seed(List::new("packets", self.0, pair))?);
                    }
                    "keys" if keys.is_none() => {
                        keys = Some(map.next_value_seed(List::new("keys", self.0, number))?);
                    }
                    k if KNOWN_FIELDS.contains(&k) && !LISTS.contains(&k) => {
                        let value = map.next_value::<Value>()?;
                        out.push((key, value));
                    }
                    _ => {
                        // Only its name is needed (a front end notes an
                        // unknown field; a list named twice is refused):
                        // its value is read past, whatever its size.
                        map.next_value::<IgnoredAny>()?;
                        out.push((key, Value::Null));
                    }
                }
            }
            Ok(Fields(out, packets, keys))
        }
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let Fields(read, packets, keys) = de
        .deserialize_any(Collect(max_packets))
        .and_then(|fields| de.end().map(|()| fields))
        .map_err(|e| match e.classify() {
            serde_json::error::Category::Data if e.to_string().starts_with(OUT_OF_MEMORY) => Error::Json(e.to_string()),
            serde_json::error::Category::Data => {
                Error::Json("expected a JSON object with \"topology\" and \"packets\"".into())
            }
            _ => Error::Json(format!("not valid JSON: {e}")),
        })?;
    let mut fields = serde_json::Map::new();
    for (key, value) in read {
        let list = LISTS.contains(&key.as_str());
        if fields.contains_key(&key) || list {
            // A list's second value was read past, as an unknown field's.
            let shown = if KNOWN_FIELDS.contains(&key.as_str()) && !list {
                short(&value)
            } else {
                "…".into()
            };
            return Err(Error::invalid(
                key,
                shown,
                "the field is given twice in the instance (JSON object keys must be unique)",
            ));
        }
        fields.insert(key, value);
    }
    Ok(TopLevel { fields, packets, keys })
}

/// A value shortened for an error message.
pub(super) fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}
