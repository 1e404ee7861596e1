//! A 64-bit checksum as 16 hex digits in JSON, as in the text: a JSON number above 2^53
//! is rounded by many readers (JavaScript, jq, pandas' default float parsing).

use serde::{Deserialize, Deserializer, Serializer};

pub fn serialize<S: Serializer>(value: &u64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&format!("{value:016x}"))
}

/// Reads the hex string, or the plain number that checkpoints written before held.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Hex(String),
        Number(u64),
    }
    match Either::deserialize(d)? {
        Either::Hex(text) => u64::from_str_radix(&text, 16).map_err(serde::de::Error::custom),
        Either::Number(n) => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, PartialEq, Debug)]
    struct Sum {
        #[serde(with = "super")]
        fnv: u64,
    }

    #[test]
    fn checksums_are_hex_strings_and_old_numbers_still_read() {
        let sum = Sum {
            fnv: 0xe56a_39a6_7b48_79fc,
        };
        let text = serde_json::to_string(&sum).unwrap();
        assert_eq!(text, r#"{"fnv":"e56a39a67b4879fc"}"#);
        assert_eq!(serde_json::from_str::<Sum>(&text).unwrap(), sum);
        let old = format!(r#"{{"fnv":{}}}"#, sum.fnv);
        assert_eq!(serde_json::from_str::<Sum>(&old).unwrap(), sum);
    }
}
