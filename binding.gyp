{
  "targets": [
    {
      "target_name": "hpack",
      "sources": [
        "<!@(node -p \"require('fs').readdirSync('native/src').filter(f => f.endsWith('.c')).map(f => 'native/src/' + f).join(' ')\")",
        "<!@(node -p \"require('fs').readdirSync('native/binding').filter(f => f.endsWith('.cc')).map(f => 'native/binding/' + f).join(' ')\")"
      ],
      "include_dirs": [
        "native/include",
        "native/src"
      ],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-O2", "-D_GNU_SOURCE"],
      "cflags_c": ["-std=c11"],
      # -O3 vectorizes the encoder's latin1 check (native/binding/encoder_wrap.cc).
      "cflags_cc": ["-O3", "-std=c++17"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"]
    }
  ]
}
