{
  "targets": [
    {
      "target_name": "hpack",
      "sources": [
        "<!@(node -p \"require('fs').readdirSync('native/src').filter(f => f.endsWith('.c')).map(f => 'native/src/' + f).join(' ')\")",
        "<!@(node -p \"require('fs').readdirSync('native/binding').filter(f => f.endsWith('.cc')).map(f => 'native/binding/' + f).join(' ')\")"
      ],
      "include_dirs": [
        "<!(node -p \"require('node-addon-api').include_dir\")",
        "native/include",
        "native/src"
      ],
      # node-addon-api without C++ exceptions, failures as Maybe / empty values
      # checked at each call, and no abort when a throw fails because a worker
      # thread is being terminated (see native/binding/js_errors.h). The
      # compiler keeps exceptions for std::bad_alloc from the block buffers.
      "defines": [
        "NAPI_VERSION=8",
        "NODE_ADDON_API_DISABLE_CPP_EXCEPTIONS",
        "NODE_ADDON_API_ENABLE_MAYBE",
        "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"
      ],
      "cflags": ["-O2", "-D_GNU_SOURCE"],
      "cflags_c": ["-std=c11"],
      # -O3 vectorizes the encoder's latin1 check (native/binding/field_text.cc).
      "cflags_cc": ["-O3", "-std=c++17"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"]
    }
  ],
  "conditions": [
    # Linux only for now (accept4, SO_REUSEPORT balancing).
    ["OS=='linux'", {
      "targets": [
        {
          # The transport (issue #21): sockets and TLS on Node's own loop, with
          # the node binary's OpenSSL (its symbols, headers in include/node).
          "target_name": "transport",
          "sources": [
            "<!@(node -p \"require('fs').readdirSync('native/transport').filter(f => f.endsWith('.c')).map(f => 'native/transport/' + f).join(' ')\")"
          ],
          "defines": ["NAPI_VERSION=8"],
          "cflags": ["-O2", "-D_GNU_SOURCE", "-Wall", "-Wextra"],
          "cflags_c": ["-std=c11"]
        }
      ]
    }],
    # The QUIC transport (native/quic/, native/quic.js) needs OpenSSL 3.5's
    # QUIC server API: built only where scripts/quic-headers.js finds headers
    # that declare it (node-gyp's, or a cached Node 24's), in place of
    # node-gyp's include/node (N-API's headers are the same in both).
    # -z now: on a Node whose OpenSSL lacks a symbol the require fails instead
    # of the process dying at the first call.
    ["OS=='linux' and '<!(node scripts/quic-headers.js \"<(node_root_dir)\")'!=''", {
      "targets": [
        {
          "target_name": "quic",
          "sources": [
            "<!@(node -p \"require('fs').readdirSync('native/quic').filter(f => f.endsWith('.c')).map(f => 'native/quic/' + f).join(' ')\")",
            "native/transport/listener.c",
            "native/transport/napi_util.c",
            "native/transport/tls_context.c"
          ],
          "defines": ["NAPI_VERSION=8"],
          "include_dirs!": ["<(node_root_dir)/include/node"],
          "include_dirs": ["<!(node scripts/quic-headers.js \"<(node_root_dir)\")"],
          "cflags": ["-O2", "-D_GNU_SOURCE", "-Wall", "-Wextra"],
          "cflags_c": ["-std=c11"],
          "ldflags": ["-Wl,-z,now"]
        }
      ]
    }]
  ]
}
