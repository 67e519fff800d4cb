'use strict';
// RFC 7541 Appendix C: the example header blocks, as hex, in the order each
// group is decoded on one connection. Seeds for the decoder fuzz target.

module.exports = {
  // C.2: single representations, each on a fresh decoder.
  single: [
    '400a637573746f6d2d6b65790d637573746f6d2d686561646572',
    '040c2f73616d706c652f70617468',
    '100870617373776f726406736563726574',
    '82',
  ],
  // C.3 to C.6: requests (4096-byte table) and responses (256-byte table),
  // without and with Huffman coding.
  sequences: [
    {
      tableSize: 4096,
      blocks: [
        '828684410f7777772e6578616d706c652e636f6d',
        '828684be58086e6f2d6361636865',
        '828785bf400a637573746f6d2d6b65790c637573746f6d2d76616c7565',
      ],
    },
    {
      tableSize: 4096,
      blocks: [
        '828684418cf1e3c2e5f23a6ba0ab90f4ff',
        '828684be5886a8eb10649cbf',
        '828785bf408825a849e95ba97d7f8925a849e95bb8e8b4bf',
      ],
    },
    {
      tableSize: 256,
      blocks: [
        '4803333032580770726976617465611d4d6f6e2c203231204f637420323031332032303a31333a323120474d546e'
          + '1768747470733a2f2f7777772e6578616d706c652e636f6d',
        '4803333037c1c0bf',
        '88c1611d4d6f6e2c203231204f637420323031332032303a31333a323220474d54c05a04677a69707738666f6f3d'
          + '4153444a4b48514b425a584f5157454f50495541585157454f49553b206d61782d6167653d333630303b207665'
          + '7273696f6e3d31',
      ],
    },
    {
      tableSize: 256,
      blocks: [
        '488264025885aec3771a4b6196d07abe941054d444a8200595040b8166e082a62d1bff6e919d29ad171863c78f0b97c8'
          + 'e9ae82ae43d3',
        '4883640effc1c0bf',
        '88c16196d07abe941054d444a8200595040b8166e084a62d1bffc05a839bd9ab77ad94e7821dd7f2e6c7b335dfdfcd5b'
          + '3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007',
      ],
    },
  ],
};
